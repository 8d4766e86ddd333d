//===- RankDivergentCollectiveRule.h ----------------------------*- C++ -*-===//
#pragma once

#include "Rule.h"
#include "engine/Engine.h"

#include <vector>

namespace distlint {

/// distlint-rank-divergent-collective: a collective that not every rank
/// reaches (rank- or local-data-dependent branches, early exits, loop trip
/// counts), or whose count / root / op / datatype differ between ranks.
/// See docs/rules/distlint-rank-divergent-collective.md.
class RankDivergentCollectiveRule : public Rule {
public:
  RankDivergentCollectiveRule() : Rule("distlint-rank-divergent-collective") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const clang::SourceManager *SM = nullptr;
  std::vector<const clang::FunctionDecl *> Functions;
  void checkFunction(const clang::FunctionDecl *FD);
  void reportDivergence(const CollectiveSite &Site,
                        const Engine::Divergence &D);
  void reportArguments(const CollectiveSite &Site);
};

} // namespace distlint
