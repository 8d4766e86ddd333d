//===- RankDivergentCollectiveRule.h ----------------------------*- C++ -*-===//
#pragma once

#include "Rule.h"
#include "engine/Engine.h"
#include "llvm/ADT/SetVector.h"

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
  /// In match order, each once (a TU may hold 60,000 functions).
  llvm::SetVector<const clang::FunctionDecl *> Functions;
  void checkFunction(const clang::FunctionDecl *FD);
  void reportDispatch(const CollectiveSite &Site, const Engine::Divergence &D);
  void reportDivergence(const CollectiveSite &Site,
                        const Engine::Divergence &D);
  void reportArguments(const CollectiveSite &Site);
  void reportUnmatchedPeer(const Engine::UnmatchedPeer &U);
  void reportPerThread(const CollectiveSite &Site, const clang::Stmt *Region);
  void reportNullCommunicator(const CollectiveSite &Site,
                              const Engine::NullCommunicatorUse &N);
  void reportCrossOrder(const Engine::CrossOrder &C);
};

} // namespace distlint
