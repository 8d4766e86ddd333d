//===- TimeoutFixes.h - Fix-its of distlint-missing-timeout -----*- C++ -*-===//
//
// Only two fixes are mechanical: assigning the options' timeout field just
// before the process group is built from them (the assignment then holds on
// every path to the construction), and replacing an unusable duration
// (kNoTimeout, zero, days) by the configured MissingTimeoutDefault. Process
// groups built without options, NCCL communicators and environment
// variables get no fix (see docs/rules/distlint-missing-timeout.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "fixes/FixOptions.h"

#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"

#include <vector>

namespace distlint {
class Engine;
namespace fixes {

/// `options->timeout = <default>;` before the statement holding Site (the
/// construction that uses Options). Empty when Options is not a local,
/// assignable variable with a timeout field, or Site is not in a block.
std::vector<clang::FixItHint> setOptionsTimeout(Engine &E,
                                                const clang::Expr *Site,
                                                const clang::VarDecl *Options,
                                                const FixOptions &Opts);

/// Replaces an unusable duration expression by <default> when its type is a
/// std::chrono::duration that minutes convert to without loss.
std::vector<clang::FixItHint> replaceTimeoutValue(Engine &E,
                                                  const clang::Expr *Value,
                                                  const FixOptions &Opts);

} // namespace fixes
} // namespace distlint
