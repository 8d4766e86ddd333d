//===- RuleDocs.h - Rule doc pages embedded at build time -------*- C++ -*-===//
//
// docs/rules/<rule-id>.md is compiled into the binary (EmbedDocs.cmake
// generates EmbeddedRuleDocs.cpp), so `--explain` and SARIF help text work
// in an installed distlint without the source tree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace distlint {

/// The doc page of a rule, or null if none existed at build time.
const char *embeddedRuleDoc(llvm::StringRef RuleId);

/// The page, or a placeholder saying it was missing at build time.
std::string ruleDocOrPlaceholder(llvm::StringRef RuleId);

/// The first paragraph after the page's title (for SARIF fullDescription),
/// empty if there is no page.
std::string ruleDocFirstParagraph(llvm::StringRef RuleId);

} // namespace distlint
