//===- RuleCheck.h - A distlint rule as a clang-tidy check ------*- C++ -*-===//
//
// Adapter between clang-tidy and distlint's Rule classes. The rule code is the
// same the standalone binary runs; only the plumbing differs:
//  - clang-tidy owns the MatchFinder and the AST traversal (the whole TU, not
//    only user top-level declarations as in analyzeAST), so rules must not
//    assume they never see system-header nodes (they ask Engine::isUserCode).
//  - the Engine is created per ASTContext and shared by all distlint checks
//    of that TU (TUState in RuleCheck.cpp; freed with the ASTContext), so
//    enabling four checks does not analyze the TU four times.
//  - findings become ClangTidyCheck::diag() warnings and notes, so
//    clang-tidy's NOLINT handling, header filter and -warnings-as-errors apply.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ClangTidyCheck.h"
#include "Rule.h"

#include <memory>

namespace distlint::tidy {

class RuleCheck : public clang::tidy::ClangTidyCheck, private DiagnosticSink {
public:
  RuleCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
            const RuleInfo &Info);
  ~RuleCheck() override;

  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

private:
  void report(RawFinding F, const clang::SourceManager &SM) override;

  const RuleInfo &Info;
  clang::tidy::ClangTidyContext *TidyContext;
  std::unique_ptr<Rule> TheRule;
  FixOptions Fixes;
};

} // namespace distlint::tidy
