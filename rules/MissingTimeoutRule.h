//===- MissingTimeoutRule.h - distlint-missing-timeout ----------*- C++ -*-===//
#pragma once

#include "Rule.h"

namespace distlint {

struct Construction;

/// Process groups without a set timeout, stores and options with no or an
/// absurd timeout, the NCCL watchdog's abort switched off, and raw NCCL with
/// no way to detect or abort a hung communicator.
/// See docs/rules/distlint-missing-timeout.md.
class MissingTimeoutRule : public Rule {
public:
  MissingTimeoutRule() : Rule("distlint-missing-timeout") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkProcessGroup(const Construction &C);
  /// Returns whether Callee has a timeout argument (reported if unusable).
  bool checkKnobArguments(const clang::CallExpr *Call,
                          const clang::FunctionDecl *Callee);
  void checkKnobArguments(const clang::CXXConstructExpr *CE);
  void checkKnobArguments(const Construction &C);
  void checkFieldAssignment(const clang::Stmt *S);
  void checkInitList(const clang::InitListExpr *Init);
  void checkEnvWrite(const clang::CallExpr *Call,
                     const clang::FunctionDecl *Callee);
  void checkNcclInit(const clang::CallExpr *Call,
                     const clang::FunctionDecl *Callee);
  void reportIfUnusable(const clang::Expr *Value, bool IsStore);

  const clang::SourceManager *SM = nullptr;
};

} // namespace distlint
