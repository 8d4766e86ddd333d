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
};

} // namespace distlint
