//===- SuppressionsTest.cpp - NOLINT semantics match clang-tidy -----------===//
#include "input/Glob.h"
#include "report/Suppressions.h"

#include <gtest/gtest.h>

using namespace distlint;

namespace {
const char *Rule = "distlint-rank-divergent-collective";

/// Offset of the first occurrence of Marker (a finding's position).
size_t at(const std::string &Text, const std::string &Marker) {
  size_t Pos = Text.find(Marker);
  EXPECT_NE(Pos, std::string::npos) << Marker;
  return Pos;
}

TEST(GlobList, LastMatchWinsAndNegativesExclude) {
  GlobList G("-*,distlint-missing-*,-distlint-missing-timeout");
  EXPECT_TRUE(G.contains("distlint-missing-set-epoch"));
  EXPECT_FALSE(G.contains("distlint-missing-timeout"));
  EXPECT_FALSE(G.contains(Rule));
  EXPECT_TRUE(GlobList(" distlint-* ").contains(Rule));
  EXPECT_FALSE(GlobList("").contains(Rule));
  EXPECT_TRUE(GlobList("a,\n distlint-rank-*").contains(Rule));
  // Without negative globs "-foo" is dropped, so only positives count.
  EXPECT_FALSE(GlobList("-distlint-*", /*KeepNegative=*/false).contains(Rule));
  EXPECT_TRUE(GlobList("distlint-*,-distlint-rank-*", false).contains(Rule));
  EXPECT_TRUE(globMatches("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(globMatches("a*b", "aXXbY"));
  EXPECT_FALSE(globMatches("distlint.rank", "distlint-rank")); // '.' literal
}

TEST(NoLintTokens, ParsesKindsAndLists) {
  auto T = findNoLintTokens(
      "x // NOLINT y NOLINTNEXTLINE( a , b ) NOLINTBEGIN NOLINTEND(c) "
      "NOLINTFOO NOLINT (d) NOLINT(unclosed\n");
  ASSERT_EQ(T.size(), 6u);
  EXPECT_EQ(T[0].Kind, NoLintKind::NoLint);
  EXPECT_FALSE(T[0].Checks.has_value());
  EXPECT_EQ(T[1].Kind, NoLintKind::NextLine);
  EXPECT_EQ(*T[1].Checks, "a,b");
  EXPECT_EQ(T[2].Kind, NoLintKind::Begin);
  EXPECT_EQ(T[3].Kind, NoLintKind::End);
  EXPECT_EQ(*T[3].Checks, "c");
  // "NOLINT (d)": the list must follow immediately, so this silences all.
  EXPECT_EQ(T[4].Kind, NoLintKind::NoLint);
  EXPECT_FALSE(T[4].Checks.has_value());
  // A list without ')' on the same line is not a list.
  EXPECT_FALSE(T[5].Checks.has_value());
}

TEST(FileSuppressions, SameLine) {
  std::string Text = "a(); // NOLINT\n"
                     "b(); // NOLINT(distlint-rank-*)\n"
                     "c(); // NOLINT(distlint-missing-timeout)\n"
                     "d(); // NOLINT()\n"
                     "e(); // NOLINT(-distlint-*)\n"
                     "f();\n";
  FileSuppressions S(Text);
  EXPECT_TRUE(S.suppresses(at(Text, "a()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "b()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "c()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "c()"), "distlint-missing-timeout"));
  EXPECT_FALSE(S.suppresses(at(Text, "d()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "e()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "f()"), Rule));
  EXPECT_TRUE(S.unmatched().empty());
}

TEST(FileSuppressions, NextLineOnlyAppliesToTheNextLine) {
  std::string Text = "// NOLINTNEXTLINE(distlint-*)\n"
                     "a();\n"
                     "b(); // NOLINTNEXTLINE\n"
                     "c();\n"
                     "// NOLINTNEXTLINE\n"
                     "\n"
                     "d();\n"
                     "e(); // NOLINTNEXTLINE does not cover its own line\n";
  FileSuppressions S(Text);
  EXPECT_TRUE(S.suppresses(at(Text, "a()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "b()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "c()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "d()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "e()"), Rule));
}

TEST(FileSuppressions, BlocksNestAndNeedIdenticalLists) {
  std::string Text = "// NOLINTBEGIN(distlint-rank-*)\n"
                     "a();\n"
                     "// NOLINTBEGIN(distlint-missing-timeout)\n"
                     "b();\n"
                     "// NOLINTEND(distlint-missing-timeout)\n"
                     "c();\n"
                     "// NOLINTEND( distlint-rank-* )\n"
                     "d();\n";
  FileSuppressions S(Text);
  EXPECT_TRUE(S.suppresses(at(Text, "a()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "b()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "b()"), "distlint-missing-timeout"));
  EXPECT_FALSE(S.suppresses(at(Text, "c()"), "distlint-missing-timeout"));
  EXPECT_TRUE(S.suppresses(at(Text, "c()"), Rule));
  EXPECT_FALSE(S.suppresses(at(Text, "d()"), Rule));
  EXPECT_TRUE(S.unmatched().empty());
}

TEST(FileSuppressions, UnmatchedTokensAreErrorsAndSilenceNothing) {
  std::string Text = "// NOLINTBEGIN(distlint-rank-*)\n"
                     "a();\n"
                     "// NOLINTEND(distlint-missing-*)\n"
                     "b();\n";
  FileSuppressions S(Text);
  EXPECT_FALSE(S.suppresses(at(Text, "a()"), Rule));
  ASSERT_EQ(S.unmatched().size(), 2u);
  EXPECT_EQ(S.unmatched()[0].Kind, NoLintKind::Begin);
  EXPECT_EQ(S.unmatched()[1].Kind, NoLintKind::End);
  EXPECT_STREQ(FileSuppressions::unmatchedMessage(S.unmatched()[0]),
               "unmatched 'NOLINTBEGIN' comment without a subsequent "
               "'NOLINTEND' comment");
  EXPECT_STREQ(FileSuppressions::unmatchedMessage(S.unmatched()[1]),
               "unmatched 'NOLINTEND' comment without a previous "
               "'NOLINTBEGIN' comment");
}

TEST(FileSuppressions, BeginWithoutListCoversEverything) {
  std::string Text = "// NOLINTBEGIN\n"
                     "a();\n"
                     "// NOLINTEND\n"
                     "b();\n";
  FileSuppressions S(Text);
  EXPECT_TRUE(S.suppresses(at(Text, "a()"), Rule));
  EXPECT_TRUE(S.suppresses(at(Text, "a()"), "distlint-anything"));
  EXPECT_FALSE(S.suppresses(at(Text, "b()"), Rule));
}
} // namespace
