//===- LoopsInternal.h - Shared state of the loop questions -----*- C++ -*-===//
//
// Loops.h is the public face; the three files of engine/loops share the
// per-TU memo tables and the small AST walks declared here:
//   CallReach.cpp  which API roles a user function reaches, call sites;
//   Periodic.cpp   "does this change per iteration / call", periodic guards;
//   StepLoops.cpp  enclosing loops, training / step loops, runs-every-step;
//   RunOptions.cpp guards on run-time options that are off by default.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineCache.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/loops/Loops.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <vector>

namespace distlint {
namespace loops {

using RoleMask = uint64_t;
inline RoleMask bit(api::Role R) { return RoleMask(1) << unsigned(R); }

/// Direct facts about one user function's body.
struct CallsOfFunction {
  RoleMask Direct = 0;
  llvm::SmallVector<const clang::FunctionDecl *, 8> UserCallees;
};

/// A function whose body runs every step, reached from a call site.
struct StepCaller {
  const clang::Stmt *Site; ///< Call (or lambda expression) in the caller.
  StepContext Context;
};

struct LoopState : EngineExtension {
  explicit LoopState(Engine &E) : E(E) {}
  Engine &E;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<CallsOfFunction>>
      Calls;
  llvm::DenseMap<std::pair<const clang::FunctionDecl *, unsigned>, bool> Reach;
  llvm::DenseMap<const clang::Stmt *, bool> Training, Step, DeviceWork;
  /// 0 = in progress, 1 = no, 2 = yes.
  llvm::DenseMap<const clang::FunctionDecl *, int> StepsDirectly;
  bool CallSitesBuilt = false;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      Sites;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<StepCaller>> Callers;
  llvm::DenseSet<const clang::FunctionDecl *> CallersInProgress;
};

inline LoopState &state(Engine &E) { return engineExtension<LoopState>(E); }

/// The definition of a user function, or null for library code.
const clang::FunctionDecl *userDefinition(Engine &E,
                                          const clang::FunctionDecl *FD);

/// Calls and constructor calls in S (lambda bodies included).
void walkCalls(Engine &E, const clang::Stmt *S,
               llvm::function_ref<void(const clang::Expr *,
                                       const clang::FunctionDecl *)>
                   Fn);

/// What Def's body calls directly (roles, user callees), memoized.
const CallsOfFunction &callsOf(Engine &E, const clang::FunctionDecl *Def);

/// The parts of a loop that run on every iteration.
llvm::SmallVector<const clang::Stmt *, 4> iterationParts(const clang::Stmt *Loop);

/// Does this loop run its body at most once (`do { ... } while (0)` of a
/// check macro)? Such a loop is a block, not a loop.
bool runsAtMostOnce(Engine &E, const clang::Stmt *Loop);

/// Calls Visit(Parent, Child) for each statement enclosing S, innermost
/// first, up to the function boundary; Child is the statement below Parent
/// on the path to S. Stops when Visit returns false.
void forEachEnclosingStmt(
    Engine &E, const clang::Stmt *S,
    llvm::function_ref<bool(const clang::Stmt *Parent,
                            const clang::Stmt *Child)>
        Visit);

/// The context in which "does this value change between runs" is asked:
/// iterations of a loop, or calls of a function from a call site whose
/// arguments are judged in the outer context.
struct VaryContext {
  const clang::Stmt *Loop = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  const clang::CallExpr *Call = nullptr;
  const VaryContext *Outer = nullptr;
};

bool varies(Engine &E, const clang::Expr *X, const VaryContext &C, int Depth);

/// A condition that decides whether some code runs.
struct Guard {
  const clang::Expr *Cond;
  /// The guarded code runs when Cond is true (false: when it is false).
  bool WhenTrue;
  /// Statements that run only when the guard lets them.
  llvm::SmallVector<const clang::Stmt *, 4> Region;
};

/// Conditions between S and Stop (a loop, or the function body) that decide
/// whether S runs: enclosing if / ?: / && / switch, and earlier `if (...)
/// continue;`-style exits of the enclosing blocks.
llvm::SmallVector<Guard, 4> guardsBetween(Engine &E, const clang::Stmt *S,
                                          const clang::Stmt *Stop);

/// Is S (between itself and Stop) under a guard that lets it run only on
/// some iterations (`step % N == 0`, a reset counter, a predicate helper)?
bool guardedPeriodically(Engine &E, const clang::Stmt *S,
                         const clang::Stmt *Stop, const VaryContext &C);

} // namespace loops
} // namespace distlint
