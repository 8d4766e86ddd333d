//===- ErrorPaths.h - Status-check exits are error paths --------*- C++ -*-===//
//
// `if (MPI_Barrier(c) != MPI_SUCCESS) goto cleanup;`, `if (!f) return 1;`,
// CHECK macros that `return err_;`: the arm a failed status check takes when
// it leaves (return, goto, break) is an error path. The job is broken
// whichever rank takes it, like a fail-stop path, so the control-dependence
// layer drops these arms (see FunctionResult::liveControlDependencies): the
// code after them is not "control-dependent on rank". The option
// ReportErrorPathDivergence keeps them; so does the divergence question for
// a check whose value the rank decides (FunctionBody::errorPathDependencies).
// The arms that return on some ranks while the others go on to a collective
// (exitArmsBeforeCollectives) are found here too: a hang, reported at that
// collective, which the values after it leave out (FunctionBody::HangArms).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "engine/cfg/CFGFacts.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace distlint {

/// Which outcome of a condition means "the call failed".
enum class StatusFailure : uint8_t { NotAStatusTest, WhenTrue, WhenFalse };

/// Is Cond a test of a call's status against success (its result or a
/// local initialized from it, compared with a constant, negated, or tested
/// for truth), and which outcome is the failure? Sizes and counts
/// (unsigned results) and data the API tables describe (atoi, the rank)
/// are not statuses.
StatusFailure statusFailureOutcome(Engine &E, const clang::Expr *Cond);

/// `p->buf = malloc(n); if (p->buf == NULL) ...`: what the statement just
/// before the test's `if` assigned to Target (a field or an element tested
/// there), or null: a status as a local initialized from the call is.
const clang::Expr *assignedJustBefore(clang::ASTContext &Ctx,
                                      const clang::Expr *Target);

/// ReportErrorPathDivergence: keep status-check exits as divergent exits
/// (errorPathBlocks then finds none). Set once per TU by analyzeAST.
void setReportErrorPaths(Engine &E, bool Report);
bool reportErrorPaths(Engine &E);

/// Blocks of F's status-check exits: the failure arm of every `if` whose
/// condition is a status test, when that arm runs straight to a return,
/// goto or break and issues no collective.
llvm::SmallPtrSet<const clang::CFGBlock *, 8>
errorPathBlocks(Engine &E, const FunctionFacts &F);

/// An arm from a two-way branch straight to a return, issuing no
/// collective, while every path from the branch's other successor issues a
/// collective before the function returns. Taken on some ranks only, it
/// leaves the others waiting in that collective.
struct ExitArm {
  const clang::CFGBlock *Branch = nullptr;
  llvm::SmallVector<const clang::CFGBlock *, 4> Blocks;
};
/// Every such arm of F; paths through Ended blocks end the job and need no
/// collective.
std::vector<ExitArm> exitArmsBeforeCollectives(
    Engine &E, FunctionFacts &F,
    const llvm::SmallPtrSetImpl<const clang::CFGBlock *> &Ended);

} // namespace distlint
