//===- DeviceSyncFixes.h - Fix-it of distlint-stray-device-sync -*- C++ -*-===//
//
// A device-wide sync written directly in the step loop (not in a helper it
// calls, not an implicit copy such as item()) is wrapped in
// `if (<counter> % StepSyncInterval == 0)` when the loop has an integer step
// counter (loopCounter); anything else gets no fix: removing a sync or
// choosing a stream changes what the program means.
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

std::vector<clang::FixItHint> syncEveryNthStep(Engine &E,
                                               const clang::Expr *Sync,
                                               const clang::Stmt *StepLoop,
                                               const FixOptions &Opts);

} // namespace fixes
} // namespace distlint
