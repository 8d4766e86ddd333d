//===- MissingTimeoutRule.cpp -------------------------------------------------------===//
#include "MissingTimeoutRule.h"
#include "engine/Engine.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace distlint {

void MissingTimeoutRule::registerMatchers(MatchFinder &Finder) {
  // Not implemented yet: registers nothing.
}

void MissingTimeoutRule::check(const MatchFinder::MatchResult &Result) {}

} // namespace distlint
