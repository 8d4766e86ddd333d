//===- DistlintTidyModule.cpp - distlint as a clang-tidy module -----------===//
//
// Registers one clang-tidy check per entry of distlint::allRules(), under the
// rule's own id, so `-checks='-*,distlint-*'`, NOLINT(distlint-...) and
// .clang-tidy files use the names the standalone binary prints.
//
// Decision (issue 7): the standalone `distlint` binary is NOT built on
// clang-tidy's library. It has its own driver (compile-database lookup,
// config files, baselines, SARIF, -j) and runs the rules through analyzeAST;
// this plugin runs the very same Rule classes under clang-tidy's driver. The
// two share all rule and engine code (distlint_core) and differ only in
// plumbing (RuleCheck.h).
//
//===----------------------------------------------------------------------===//
#include "ClangTidyModule.h"
#include "ClangTidyModuleRegistry.h"
#include "RuleCheck.h"

namespace distlint::tidy {
namespace {

class DistlintModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    for (const RuleInfo &Info : allRules())
      Factories.registerCheckFactory(
          Info.Id, [&Info](llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *Context) {
            return std::make_unique<RuleCheck>(Name, Context, Info);
          });
  }
};

// Runs when clang-tidy dlopen()s the plugin; the registry lives in the
// clang-tidy executable.
clang::tidy::ClangTidyModuleRegistry::Add<DistlintModule>
    Registration("distlint-module",
                 "distlint: hangs and slowdowns in distributed training code");

} // namespace
} // namespace distlint::tidy
