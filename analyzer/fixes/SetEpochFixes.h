//===- SetEpochFixes.h - Fix-its of distlint-missing-set-epoch --*- C++ -*-===//
//
// Two findings have a mechanical fix, both need the epoch loop's integer
// counter (loopCounter) and a sampler variable:
//   - the loader is rebuilt every epoch without set_epoch: insert
//     `sampler.set_epoch(epoch);` at the top of the epoch loop (the sampler
//     is declared before the loop) or right after the sampler's declaration
//     (declared in the loop, before the loader);
//   - the loader is built once, before the epoch loop: move its declaration
//     to the top of the loop, after `sampler.set_epoch(epoch);`, when the
//     loader is used only inside that loop and its arguments are not moved
//     from.
// Anything else (a sampler without a variable, helpers, loops without a
// counter, a constant epoch) gets no fix.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Expr.h"
#include "clang/Basic/Diagnostic.h"

#include <vector>

namespace distlint {
class Engine;
namespace fixes {

std::vector<clang::FixItHint> insertSetEpoch(Engine &E,
                                             const clang::Expr *Factory,
                                             const clang::VarDecl *Sampler,
                                             const clang::Stmt *EpochLoop);

std::vector<clang::FixItHint>
moveLoaderIntoEpochLoop(Engine &E, const clang::Expr *Factory,
                        const clang::VarDecl *Sampler,
                        const clang::Stmt *EpochLoop);

} // namespace fixes
} // namespace distlint
