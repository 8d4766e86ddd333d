//===- ExportFixesTest.cpp - clang-tidy's YAML and --fix -------------------===//
#include "report/ExportFixes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace distlint;

namespace {
std::string tempFile(llvm::StringRef Text) {
  llvm::SmallString<128> Path;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("fix", "cpp", FD, Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return std::string(Path);
}

std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

Finding finding(const std::string &File, unsigned Line, unsigned Col,
                std::vector<Replacement> Fixes) {
  Finding F;
  F.Rule = "distlint-missing-timeout";
  F.Loc = {File, Line, Col};
  F.Message = "timeout 'x'";
  F.Fixes = std::move(Fixes);
  return F;
}
} // namespace

TEST(ExportFixes, ClangTidyYamlLayout) {
  std::string File = tempFile("int a;\nint b = 0;\n");
  std::vector<Finding> Fs = {finding(File, 2, 9, {{File, 15, 1, "5"}}),
                             finding(File, 1, 1, {})};
  Fs[1].Sev = Severity::Error;
  Fs[1].Notes.push_back({{File, 1, 5}, "here"});
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeExportFixes(Fs, File, "/build", OS);
  EXPECT_NE(S.find("MainSourceFile:  '" + File + "'"), std::string::npos) << S;
  EXPECT_NE(S.find("DiagnosticName:  distlint-missing-timeout"), std::string::npos);
  // Line 2, column 9 is byte 7 + 8.
  EXPECT_NE(S.find("FileOffset:      15"), std::string::npos) << S;
  EXPECT_NE(S.find("ReplacementText: '5'"), std::string::npos) << S;
  EXPECT_NE(S.find("Level:           Error"), std::string::npos) << S;
  EXPECT_NE(S.find("Message:         here"), std::string::npos) << S;
  EXPECT_NE(S.find("BuildDirectory:  '/build'"), std::string::npos) << S;
  llvm::sys::fs::remove(File);
}

TEST(ApplyFixes, DedupesIdenticalAndSkipsOverlapping) {
  std::string File = tempFile("abcdef\n");
  std::vector<Finding> Fs = {
      finding(File, 1, 1, {{File, 0, 1, "X"}}),
      finding(File, 1, 1, {{File, 0, 1, "X"}}),            // same edit again
      finding(File, 1, 1, {{File, 0, 2, "Y"}}),            // overlaps: skipped
      finding(File, 1, 5, {{File, 4, 0, "+"}, {File, 6, 0, "!"}})};
  FixStats Stats;
  std::string Error;
  ASSERT_TRUE(applyFixes(Fs, Stats, Error)) << Error;
  EXPECT_EQ(readFile(File), "Xbcd+ef!\n");
  EXPECT_EQ(Stats.Applied, 3u);
  EXPECT_EQ(Stats.Conflicting, 1u);
  EXPECT_EQ(Stats.Files, 1u);
  llvm::sys::fs::remove(File);
}

TEST(ApplyFixes, UnreadableFileIsAnError) {
  std::vector<Finding> Fs = {
      finding("/nonexistent/dir/x.cpp", 1, 1, {{"/nonexistent/dir/x.cpp", 0, 0, "a"}})};
  FixStats Stats;
  std::string Error;
  EXPECT_FALSE(applyFixes(Fs, Stats, Error));
  EXPECT_NE(Error.find("/nonexistent/dir/x.cpp"), std::string::npos);
}
