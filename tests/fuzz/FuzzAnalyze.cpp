//===- FuzzAnalyze.cpp - mutated sources through parse, engine, rules -----===//
#include "Harnesses.h"

#include "Analysis.h"
#include "report/FindingCollector.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"

#include <string>
#include <vector>

namespace distlint::fuzz {
namespace {
class Action : public clang::ASTFrontendAction {
public:
  explicit Action(FindingCollector &Sink) : Sink(Sink) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    AnalysisOptions Opts;
    Opts.RuleEnabled = [](llvm::StringRef) { return true; };
    return makeAnalysisConsumer(std::move(Opts), Sink);
  }

private:
  FindingCollector &Sink;
};
} // namespace

int analyzeSource(const uint8_t *Data, size_t Size) {
  // Bounded like a real TU: huge inputs only test the parser's patience.
  if (Size > 64 * 1024)
    return 0;
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  CollectorOptions COpts;
  COpts.ProjectRoot = "/fuzz";
  FindingCollector Sink(std::move(COpts));
  std::vector<std::string> Args = {
      "-std=c++17", "-fsyntax-only", "-I" DISTLINT_SOURCE_DIR "/testdata/include",
      "-resource-dir=" DISTLINT_CLANG_RESOURCE_DIR, "-Wno-everything",
      "-ferror-limit=20", "-fbracket-depth=256"};
  clang::tooling::runToolOnCodeWithArgs(std::make_unique<Action>(Sink), Code,
                                        Args, "/fuzz/input.cpp");
  return 0;
}

} // namespace distlint::fuzz
