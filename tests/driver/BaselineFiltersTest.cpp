//===- BaselineFiltersTest.cpp - baseline, --line-filter, --diff ----------===//
#include "report/Baseline.h"
#include "input/Filters.h"

#include <gtest/gtest.h>

using namespace distlint;

namespace {
Finding finding(const std::string &File, unsigned Line, const std::string &FP) {
  Finding F;
  F.Rule = "distlint-missing-timeout";
  F.Loc = {File, Line, 1};
  F.Message = "msg";
  F.Fingerprint = FP;
  return F;
}

TEST(Baseline, RoundTripsAndFiltersOnlyKnownFingerprints) {
  std::vector<Finding> Old = {finding("/r/a.cpp", 3, "aaa"),
                              finding("/r/b.cpp", 4, "bbb")};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeBaseline(Old, "/r", OS);
  EXPECT_NE(Text.find("\"file\": \"a.cpp\""), std::string::npos) << Text;

  std::set<std::string> Known;
  std::string Error;
  ASSERT_TRUE(parseBaseline(Text, "b.json", Known, Error)) << Error;
  EXPECT_EQ(Known, (std::set<std::string>{"aaa", "bbb"}));

  std::vector<Finding> Now = {finding("/r/a.cpp", 9, "aaa"),
                              finding("/r/c.cpp", 1, "ccc")};
  EXPECT_EQ(applyBaseline(Now, Known), 1u);
  ASSERT_EQ(Now.size(), 1u);
  EXPECT_EQ(Now[0].Fingerprint, "ccc");
}

TEST(Baseline, RejectsOtherFiles) {
  std::set<std::string> Known;
  std::string Error;
  EXPECT_FALSE(parseBaseline("not json", "x", Known, Error));
  EXPECT_NE(Error.find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(parseBaseline("{\"a\":1}", "x", Known, Error));
  EXPECT_FALSE(parseBaseline("{\"findings\":[{\"rule\":\"r\"}]}", "x", Known,
                             Error));
  // distlint's own --format=json output is a valid baseline.
  EXPECT_TRUE(parseBaseline("{\"tool\":{},\"findings\":[{\"fingerprint\":"
                            "\"f\"}],\"errors\":[]}",
                            "x", Known, Error));
}

TEST(LineFilter, FollowsClangTidy) {
  LineFilter F;
  std::string Error;
  ASSERT_TRUE(F.parse("[{\"name\":\"a.cpp\",\"lines\":[[1,3],[10,10]]},"
                      "{\"name\":\"b.h\"},{\"name\":\"a.cpp\"}]",
                      Error))
      << Error;
  EXPECT_TRUE(F.passes("/src/a.cpp", 2));
  EXPECT_TRUE(F.passes("/src/a.cpp", 10));
  // The first matching entry decides: the later catch-all a.cpp is ignored.
  EXPECT_FALSE(F.passes("/src/a.cpp", 5));
  EXPECT_TRUE(F.passes("/src/b.h", 99));
  EXPECT_FALSE(F.passes("/src/c.cpp", 1));
  LineFilter Empty;
  EXPECT_TRUE(Empty.passes("/x", 1));
  EXPECT_FALSE(F.parse("{\"name\":1}", Error));
  EXPECT_FALSE(F.parse("[{\"name\":\"a\",\"lines\":[[1]]}]", Error));
  EXPECT_FALSE(F.parse("[oops", Error));
}

TEST(Diff, ParsesZeroContextHunks) {
  ChangedLines C = parseUnifiedDiff(
      "diff --git a/src/a.cpp b/src/a.cpp\n"
      "--- a/src/a.cpp\n"
      "+++ b/src/a.cpp\n"
      "@@ -3,0 +4,2 @@ void f() {\n"
      "+x\n+y\n"
      "@@ -10 +12 @@\n"
      "-a\n+b\n"
      "@@ -20,3 +21,0 @@\n"
      "-gone\n"
      "diff --git a/old.cpp b/old.cpp\n"
      "--- a/old.cpp\n"
      "+++ /dev/null\n"
      "@@ -1,2 +0,0 @@\n"
      "--- a/\"sp ace.cpp\"\n"
      "+++ \"b/sp ace.cpp\"\n"
      "@@ -1 +1 @@\n");
  EXPECT_FALSE(C.contains("src/a.cpp", 3));
  EXPECT_TRUE(C.contains("src/a.cpp", 4));
  EXPECT_TRUE(C.contains("src/a.cpp", 5));
  EXPECT_FALSE(C.contains("src/a.cpp", 6));
  EXPECT_TRUE(C.contains("src/a.cpp", 12));
  EXPECT_FALSE(C.contains("src/a.cpp", 21)); // pure deletion
  EXPECT_FALSE(C.contains("old.cpp", 1));
  EXPECT_TRUE(C.contains("sp ace.cpp", 1));
}
} // namespace
