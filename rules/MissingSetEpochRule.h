//===- MissingSetEpochRule.h - distlint-missing-set-epoch -------*- C++ -*-===//
#pragma once

#include "Rule.h"

#include "llvm/ADT/DenseSet.h"

namespace distlint {

struct LoaderFacts;

/// DistributedRandomSampler without an effective set_epoch (same order every
/// epoch), samplers with constant replicas/rank, and samplers whose shards
/// differ in length under a loop with collectives.
/// See docs/rules/distlint-missing-set-epoch.md.
class MissingSetEpochRule : public Rule {
public:
  MissingSetEpochRule() : Rule("distlint-missing-set-epoch") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  void checkSamplerConstruction(const clang::Expr *Site);
  void checkLoader(const LoaderFacts &F);

  const clang::SourceManager *SM = nullptr;
  /// set_epoch calls already reported (one finding per call).
  llvm::DenseSet<const clang::Expr *> ReportedSetEpoch;
};

} // namespace distlint
