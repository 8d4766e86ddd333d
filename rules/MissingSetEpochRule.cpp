//===- MissingSetEpochRule.cpp -------------------------------------------------------===//
#include "MissingSetEpochRule.h"
#include "engine/Engine.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void MissingSetEpochRule::registerMatchers(MatchFinder &Finder) {
  // Not implemented yet: registers nothing.
}

void MissingSetEpochRule::check(const MatchFinder::MatchResult &Result) {}

} // namespace distlint
