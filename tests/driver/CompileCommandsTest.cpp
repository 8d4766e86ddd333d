//===- CompileCommandsTest.cpp - compile command clean-up -----------------===//
#include "CompileCommands.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace distlint;

namespace {
bool has(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}
size_t indexOf(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) - V.begin();
}

TEST(CleanCommandLine, DropsWhatClangRejects) {
  auto Out = cleanCommandLine(
      {"/usr/bin/ccache", "/usr/bin/g++-12", "-O2", "-fconcepts-diagnostics-depth=3",
       "-Wno-maybe-uninitialized", "-fno-semantic-interposition", "-fanalyzer",
       "-Werror", "-Werror=return-type", "-pedantic-errors", "-DX=1", "-Iinc",
       "-include-pch", "pch.gch", "-c", "a.cpp", "-o", "a.o"},
      "/res", false, {"-DBEFORE"}, {"-DAFTER"});
  EXPECT_EQ(Out[0], "/usr/bin/g++-12");
  EXPECT_FALSE(has(Out, "-fconcepts-diagnostics-depth=3"));
  EXPECT_FALSE(has(Out, "-fanalyzer"));
  EXPECT_FALSE(has(Out, "-Werror"));
  EXPECT_FALSE(has(Out, "-Werror=return-type"));
  EXPECT_FALSE(has(Out, "-pedantic-errors"));
  EXPECT_FALSE(has(Out, "-include-pch"));
  EXPECT_FALSE(has(Out, "pch.gch"));
  // Known to Clang: kept (unknown warnings are silenced instead).
  EXPECT_TRUE(has(Out, "-Wno-maybe-uninitialized"));
  EXPECT_TRUE(has(Out, "-fno-semantic-interposition"));
  EXPECT_TRUE(has(Out, "-DX=1"));
  EXPECT_TRUE(has(Out, "-Iinc"));
  EXPECT_TRUE(has(Out, "a.cpp"));
  EXPECT_TRUE(has(Out, "-Wno-unknown-warning-option"));
  EXPECT_TRUE(has(Out, "-Wno-unused-command-line-argument"));
  EXPECT_TRUE(has(Out, "-resource-dir=/res"));
  EXPECT_LT(indexOf(Out, "-DBEFORE"), indexOf(Out, "-O2"));
  EXPECT_GT(indexOf(Out, "-DAFTER"), indexOf(Out, "a.o"));
}

TEST(CleanCommandLine, ResourceDirOfTheCommandWinsUnlessOverridden) {
  auto Kept = cleanCommandLine({"clang++", "-resource-dir", "/theirs", "a.cpp"},
                               "/ours", false, {}, {});
  EXPECT_TRUE(has(Kept, "/theirs"));
  EXPECT_FALSE(has(Kept, "-resource-dir=/ours"));
  auto Overridden = cleanCommandLine(
      {"clang++", "-resource-dir", "/theirs", "a.cpp"}, "/ours", true, {}, {});
  EXPECT_FALSE(has(Overridden, "/theirs"));
  EXPECT_TRUE(has(Overridden, "-resource-dir=/ours"));
}

TEST(CleanCommandLine, ExtraArgsGoBeforeDashDash) {
  auto Out = cleanCommandLine({"clang++", "-c", "--", "a.cpp"}, "", false, {},
                              {"-DAFTER"});
  EXPECT_LT(indexOf(Out, "-DAFTER"), indexOf(Out, "--"));
}
} // namespace
