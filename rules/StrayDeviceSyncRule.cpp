//===- StrayDeviceSyncRule.cpp -------------------------------------------------------===//
#include "StrayDeviceSyncRule.h"
#include "engine/Engine.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void StrayDeviceSyncRule::registerMatchers(MatchFinder &Finder) {
  // Not implemented yet: registers nothing.
}

void StrayDeviceSyncRule::check(const MatchFinder::MatchResult &Result) {}

} // namespace distlint
