//===- MissingTimeoutRule.h - distlint-missing-timeout ----------*- C++ -*-===//
#pragma once

#include "Rule.h"

#include <optional>
#include <string>

namespace distlint {

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
  void checkConstruction(const clang::Expr *Site);
  void checkKnobCall(const clang::Expr *Site);
  void checkFieldAssignment(const clang::Stmt *S);
  void checkInitList(const clang::InitListExpr *Init);
  void checkEnvWrite(const clang::CallExpr *Call);
  void checkNcclInit(const clang::CallExpr *Call);
  /// Why a timeout value is unusable ("kNoTimeout", "zero"...), if it is.
  std::optional<std::string> badTimeout(const clang::Expr *Value);
  void reportBadTimeout(const clang::Expr *Value, const std::string &Why,
                        bool IsStore);
  bool creationSetsTimeout(const clang::Expr *X, int Depth);

  const clang::SourceManager *SM = nullptr;
};

} // namespace distlint
