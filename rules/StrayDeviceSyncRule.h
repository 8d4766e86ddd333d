//===- StrayDeviceSyncRule.h - distlint-stray-device-sync -------*- C++ -*-===//
#pragma once

#include "Rule.h"

namespace distlint {

/// A device-wide, stream/event or implicit host-device synchronization that
/// runs in every training step. See docs/rules/distlint-stray-device-sync.md.
class StrayDeviceSyncRule : public Rule {
public:
  StrayDeviceSyncRule() : Rule("distlint-stray-device-sync") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  enum class SyncKind { None, Device, StreamOrEvent, Implicit };
  SyncKind classify(const clang::CallExpr *Call, std::string &What);
  bool isHostCopy(const clang::Expr *Object);
  bool isHostFactory(const clang::CallExpr *Call);
  bool onlyReadOrReducedInPlace(const clang::VarDecl *V);
};

} // namespace distlint
