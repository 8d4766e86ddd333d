//===- RankDivergentCollectiveRule.h - distlint-rank-divergent-collective ---------------------------*- C++ -*-===//
#pragma once

#include "Rule.h"

namespace distlint {

/// See docs/rules/distlint-rank-divergent-collective.md.
class RankDivergentCollectiveRule : public Rule {
public:
  RankDivergentCollectiveRule() : Rule("distlint-rank-divergent-collective") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace distlint
