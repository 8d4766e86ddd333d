//===- MissingTimeoutRule.h - distlint-missing-timeout ---------------------------*- C++ -*-===//
#pragma once

#include "Rule.h"

namespace distlint {

/// See docs/rules/distlint-missing-timeout.md.
class MissingTimeoutRule : public Rule {
public:
  MissingTimeoutRule() : Rule("distlint-missing-timeout") {}
  void registerMatchers(clang::ast_matchers::MatchFinder &Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace distlint
