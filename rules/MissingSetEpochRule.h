//===- MissingSetEpochRule.h - distlint-missing-set-epoch ---------------------------*- C++ -*-===//
#pragma once

#include "Rule.h"

namespace distlint {

/// See docs/rules/distlint-missing-set-epoch.md.
class MissingSetEpochRule : public Rule {
public:
  MissingSetEpochRule() : Rule("distlint-missing-set-epoch") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace distlint
