//===- Loops.h - Loop and call-context questions beyond Engine.h -*- C++
//-*-===//
//
// Engine.h answers "is this a training loop" and "is this statement
// periodic"; rules also need to know whether a statement runs once per
// training *step* (possibly inside a helper called from the step loop),
// which loops enclose a statement, and whether a value changes from one
// iteration to the next. Everything here is memoized per TU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h" // class Engine (the facade), by reference
#include "clang/AST/Stmt.h"
#include "engine/ast/AstHelpers.h" // isLoopStmt
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace distlint {

/// Loops whose iterations run S (S in the body, condition or increment, not
/// in the init), innermost first, up to S's function (a lambda body is a
/// function of its own).
llvm::SmallVector<const clang::Stmt *, 4> enclosingLoops(Engine &E,
                                                         const clang::Stmt *S);

/// Is S inside an iteration of Loop (see enclosingLoops)?
bool runsInIterationOf(Engine &E, const clang::Stmt *S,
                       const clang::Stmt *Loop);

/// A loop whose every iteration is a training step: a training loop whose
/// body reaches a backward pass, optimizer step, forward or collective
/// outside any nested training loop, and runs no nested loop (here or in a
/// callee) that computes and communicates every iteration (an epoch loop around
/// a batch loop is a training loop but not a step loop; a step loop around
/// gradient-accumulation micro-steps is one), or a loop that queues device
/// computation (kernel launches, cuBLAS) every iteration; not a benchmark
/// loop (isBenchmarkLoop).
bool isStepLoop(Engine &E, const clang::Stmt *Loop);

/// Does one call of FD run a training step outside its own training loops
/// (train_step() rather than train_epoch() or a logging helper)?
bool runsTrainingStep(Engine &E, const clang::FunctionDecl *FD);

/// A loop that issues collectives and reads a clock but runs no training
/// step and queues no computation: a benchmark or verification loop timing
/// communication, not training.
bool isBenchmarkLoop(Engine &E, const clang::Stmt *Loop);

/// Does the value of X change from one iteration of Loop to the next (it
/// reads a variable written in the loop, the loop variable, or something
/// derived from them)?
bool variesPerIteration(Engine &E, const clang::Expr *X,
                        const clang::Stmt *Loop);

/// Where a statement runs once per training step.
struct StepContext {
  /// The step loop.
  const clang::Stmt *Loop = nullptr;
  /// When S is in a helper: the calls (or lambda expressions) that lead from
  /// the loop to S's function, the one inside the loop first.
  llvm::SmallVector<const clang::Stmt *, 2> Via;
};

/// Does S run on every iteration of a step loop (not under a periodic guard
/// like `step % N == 0`), in its own function or through the functions that
/// call it?
std::optional<StepContext> runsEveryStep(Engine &E, const clang::Stmt *S);

/// A condition that keeps code off unless the user asks for it at run time.
struct OptInGuard {
  const clang::Expr *Cond = nullptr;
  /// The run-time option the condition reads: a local or field set from the
  /// command line or environment, otherwise a constant.
  const clang::ValueDecl *Option = nullptr;
  int64_t Default = 0; ///< The value it holds unless set.
};

/// Is S, run every step per Ctx, under a condition that is false while the
/// run-time option it reads holds its default (`if (variant == 6)` where
/// `variant` is 2 unless argv says otherwise)? Code the user opts into at
/// run time, like an `#ifdef DEBUG` block at compile time.
std::optional<OptInGuard> optInGuard(Engine &E, const clang::Stmt *S,
                                     const StepContext &Ctx);

/// Every loop whose iterations run S: the loops around S in its function
/// (Via empty), and the loops around the calls of S's function in its
/// callers, transitively (Via: the calls from the loop's function down to
/// S's function). Loops that run at most once (`do { } while (0)` of check
/// macros) are not loops. Up to kCallContextDepth calls deep.
llvm::SmallVector<StepContext, 4> loopsAround(Engine &E, const clang::Stmt *S);
constexpr int kCallContextDepth = 4;

/// variesPerIteration for X in the function at the end of Ctx.Via: its
/// parameters vary when the arguments passed along Via do.
bool variesPerIteration(Engine &E, const clang::Expr *X,
                        const StepContext &Ctx);

/// Calls of FD (resolved through Engine::resolveCallee) in user code.
llvm::ArrayRef<const clang::CallExpr *>
callSitesOf(Engine &E, const clang::FunctionDecl *FD);

/// Calls and constructor calls inside S (including lambda bodies), with the
/// callee (null when unknown).
void forEachCallIn(Engine &E, const clang::Stmt *S,
                   llvm::function_ref<void(const clang::Expr *Call,
                                           const clang::FunctionDecl *Callee)>
                       Fn);

} // namespace distlint
