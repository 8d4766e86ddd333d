//===- FindingCollectorTest.cpp - RawFinding -> Finding on real ASTs -------===//
#include "report/FindingCollector.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace distlint;
using namespace clang;
using namespace clang::ast_matchers;

namespace {
const char *Rule = "distlint-rank-divergent-collective";
const char *MainFile = "/distlint-test/src/train.cpp";

/// Parses Code and reports one finding at every call of `target()`.
std::vector<Finding> findingsFor(const std::string &Code,
                                 unsigned *Suppressed = nullptr) {
  // The AST refers to the headers' text without copying it: it must outlive
  // the AST.
  static const tooling::FileContentMappings Headers = {
      {"/distlint-sys/syshdr.h",
       "void target(); inline void in_system() { target(); }\n"},
      {"/distlint-test/src/user.h",
       "void target(); inline void in_user_header() { target(); }\n"}};
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      Code, {"-std=c++17", "-isystem", "/distlint-sys"}, MainFile, "distlint",
      std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), Headers);
  EXPECT_TRUE(AST);
  CollectorOptions Opts;
  Opts.ProjectRoot = "/distlint-test";
  FindingCollector Collector(Opts);
  Collector.setASTContext(&AST->getASTContext());
  auto Calls =
      match(callExpr(callee(functionDecl(hasName("target")))).bind("c"),
            AST->getASTContext());
  for (const BoundNodes &N : Calls) {
    const auto *Call = N.getNodeAs<CallExpr>("c");
    RawFinding F;
    F.Rule = Rule;
    F.Loc = Call->getBeginLoc();
    F.Message = "collective reached by some ranks only";
    F.Notes.push_back({Call->getBeginLoc(), "the call"});
    Collector.report(std::move(F), AST->getSourceManager());
  }
  Collector.finishTranslationUnit(AST->getSourceManager());
  if (Suppressed)
    *Suppressed = Collector.suppressedCount();
  std::vector<Finding> Out = Collector.takeFindings();
  sortAndDedupe(Out);
  return Out;
}

std::vector<unsigned> lines(const std::vector<Finding> &Fs) {
  std::vector<unsigned> L;
  for (const Finding &F : Fs)
    L.push_back(F.Loc.Line);
  return L;
}

TEST(FindingCollector, ConvertsLocationsAndNotes) {
  auto Fs = findingsFor("void target();\n"
                        "void f() {\n"
                        "  target();\n"
                        "}\n");
  ASSERT_EQ(Fs.size(), 1u);
  EXPECT_EQ(Fs[0].Loc.File, MainFile);
  EXPECT_EQ(Fs[0].Loc.Line, 3u);
  EXPECT_EQ(Fs[0].Loc.Column, 3u);
  EXPECT_EQ(Fs[0].Sev, Severity::Warning);
  ASSERT_EQ(Fs[0].Notes.size(), 1u);
  EXPECT_EQ(Fs[0].Notes[0].Loc.Line, 3u);
  EXPECT_EQ(Fs[0].Fingerprint.size(), 32u);
}

TEST(FindingCollector, SkipsSystemHeadersButNotUserHeaders) {
  auto Fs = findingsFor("#include <syshdr.h>\n"
                        "#include \"user.h\"\n"
                        "void f() { in_system(); in_user_header(); }\n");
  ASSERT_EQ(Fs.size(), 1u);
  EXPECT_EQ(Fs[0].Loc.File, "/distlint-test/src/user.h");
}

TEST(FindingCollector, MacrosUseExpansionLocationAndNoLintAnywhereUpTheChain) {
  unsigned Suppressed = 0;
  auto Fs = findingsFor("void target();\n"
                        "#define SYNC() target()\n"
                        "#define QUIET_SYNC() target() // NOLINT\n"
                        "void f() {\n"
                        "  SYNC();\n"             // 5: reported
                        "  SYNC(); // NOLINT\n"   // 6: silenced at use
                        "  QUIET_SYNC();\n"       // 7: silenced in definition
                        "}\n",
                        &Suppressed);
  EXPECT_EQ(lines(Fs), std::vector<unsigned>{5});
  EXPECT_EQ(Fs[0].Loc.Column, 3u);
  EXPECT_EQ(Suppressed, 2u);
}

TEST(FindingCollector, UnmatchedBeginIsReportedAsError) {
  auto Fs = findingsFor("void target();\n"
                        "// NOLINTBEGIN(distlint-rank-divergent-collective)\n"
                        "void f() { target(); }\n");
  ASSERT_EQ(Fs.size(), 2u);
  EXPECT_EQ(Fs[0].Rule, NoLintErrorRule);
  EXPECT_EQ(Fs[0].Sev, Severity::Error);
  EXPECT_EQ(Fs[0].Loc.Line, 2u);
  EXPECT_EQ(Fs[0].Loc.Column, 4u);
  EXPECT_EQ(Fs[1].Rule, Rule);
  EXPECT_EQ(Fs[1].Loc.Line, 3u);
}

TEST(FindingCollector, FingerprintKeyIgnoresInsertedLinesAbove) {
  auto Before = findingsFor("void target();\n"
                            "void f() {\n"
                            "  target();\n"
                            "}\n");
  auto After = findingsFor("void target();\n"
                           "// a new comment\n"
                           "int unrelated = 1;\n"
                           "\n"
                           "void f() {\n"
                           "  int x = 0; (void)x;\n"
                           "    target();   \n"
                           "}\n");
  auto OtherFunction = findingsFor("void target();\n"
                                   "void g() {\n"
                                   "  target();\n"
                                   "}\n");
  ASSERT_EQ(Before.size(), 1u);
  ASSERT_EQ(After.size(), 1u);
  ASSERT_EQ(OtherFunction.size(), 1u);
  EXPECT_NE(Before[0].Loc.Line, After[0].Loc.Line);
  EXPECT_EQ(Before[0].Fingerprint, After[0].Fingerprint);
  EXPECT_NE(Before[0].Fingerprint, OtherFunction[0].Fingerprint);
}

TEST(FindingCollector, InstalledHeadersAreNotUserCode) {
  CollectorOptions Opts;
  Opts.ProjectRoot = "/home/me/proj";
  FindingCollector C(Opts);
  EXPECT_FALSE(C.isUserFile("/usr/include/torch/csrc/api/include/torch/nn.h"));
  EXPECT_FALSE(C.isUserFile("/opt/nccl/include/nccl.h"));
  EXPECT_TRUE(C.isUserFile("/home/me/proj/src/a.cpp"));
  EXPECT_TRUE(C.isUserFile("/tmp/other/a.cpp"));
  Opts.ProjectRoot = "/usr/src/proj";
  FindingCollector InUsr(Opts);
  EXPECT_TRUE(InUsr.isUserFile("/usr/src/proj/a.cpp"));
}
} // namespace
