//===- RankDivergentCollectiveRule.cpp -------------------------------------------------------===//
#include "RankDivergentCollectiveRule.h"
#include "engine/Engine.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void RankDivergentCollectiveRule::registerMatchers(MatchFinder &Finder) {
  // Not implemented yet: registers nothing.
}

void RankDivergentCollectiveRule::check(const MatchFinder::MatchResult &Result) {}

} // namespace distlint
