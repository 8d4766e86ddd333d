//===- FailStop.h - Paths that end the whole job ---------------*- C++ -*-===//
//
// A fail-stop path ends every rank's job (exit, abort, MPI_Abort, a throw
// nobody catches): divergence on it cannot hang the others, so analyses
// ignore the branches whose other arms only end the job.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace distlint {

/// Does B end in a throw that leaves the function (no enclosing try)? The
/// CFG lists the throw as B's last element, with the exit as successor (or
/// as the terminator, depending on the build options).
bool throwLeavesFunction(const clang::CFGBlock *B, const clang::CFGBlock *Exit);

/// Is Dispatch -> Succ the edge a try's handler dispatch takes when none of
/// its handlers catches the exception (to the function's exit)? Such an
/// exception leaves the function like a throw outside any try.
bool escapesTry(const clang::CFGBlock *Dispatch, const clang::CFGBlock *Succ);

/// Blocks from which every path ends the job: blocks that stop it
/// themselves (a no-return element, a call FailStopCall accepts, a throw
/// that leaves the function) and blocks whose successors all are doomed.
/// Least fixpoint, so an endless loop is not doomed. A no-return call that
/// EndsNormally accepts (`exit(EXIT_SUCCESS)`) is a path to the exit.
llvm::SmallPtrSet<const clang::CFGBlock *, 8> doomedBlocks(
    const clang::CFG &G,
    llvm::function_ref<bool(const clang::CallExpr *)> FailStopCall,
    llvm::function_ref<bool(const clang::CallExpr *)> EndsNormally = nullptr);

} // namespace distlint
