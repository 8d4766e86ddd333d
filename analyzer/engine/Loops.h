//===- Loops.h - Loop and call-context questions beyond Engine.h -*- C++ -*-===//
//
// Engine.h answers "is this a training loop" and "is this statement
// periodic"; rules also need to know whether a statement runs once per
// training *step* (possibly inside a helper called from the step loop),
// which loops enclose a statement, and whether a value changes from one
// iteration to the next. Everything here is memoized per TU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Engine.h"
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

/// A training loop whose every iteration is a training step: its body
/// reaches a backward pass, optimizer step, forward or collective outside
/// any nested training loop (an epoch loop around a batch loop is a
/// training loop but not a step loop).
bool isStepLoop(Engine &E, const clang::Stmt *Loop);

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

/// Calls of FD (resolved through Engine::resolveCallee) in user code.
llvm::ArrayRef<const clang::CallExpr *> callSitesOf(Engine &E,
                                                    const clang::FunctionDecl *FD);

/// Calls and constructor calls inside S (including lambda bodies), with the
/// callee (null when unknown).
void forEachCallIn(Engine &E, const clang::Stmt *S,
                   llvm::function_ref<void(const clang::Expr *Call,
                                           const clang::FunctionDecl *Callee)>
                       Fn);

} // namespace distlint
