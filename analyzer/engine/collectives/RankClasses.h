//===- RankClasses.h - What each class of ranks issues ----------*- C++ -*-===//
//
// Ranks that take different paths through several rank-dependent branches
// can still issue the same sequence. "Rank 0 goes first":
//
//   if (rank != 0) barrier();   // the others wait for rank 0's cache
//   prepare_cache();
//   if (rank == 0) barrier();   // every rank issues exactly one barrier
//
// A rank class is one rank r of a world of W ranks. Its sequence is the
// function's whole tree (callees inlined) with every choice whose condition
// the class decides (the rank, the world size, constants) replaced by the
// option it takes; choices it cannot decide stay choices. The classes of
// one world size are compared pairwise with firstDifference. World sizes
// and ranks are tried from 1 up to past the largest constant the
// conditions compare with, so `if (size != 4) MPI_Abort(...)` leaves only
// the classes of a 4-rank world.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/collectives/Sequence.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace distlint {

class Engine;

namespace collectives {

struct RankClass {
  int64_t Rank = 0;
  int64_t World = 1;
};

/// The comparison of every rank class of one function.
struct ClassComparison {
  /// The comparison ran to its end within the budget.
  bool Finished = false;
  /// A first difference between two classes, seen from a side that issues
  /// something there.
  struct Witness {
    RankClass Here, Other; ///< Here issues the call; Other does not.
    /// What Other issues at that position instead (null: nothing more).
    const clang::CallExpr *OtherSite = nullptr;
  };
  /// The outermost calls of the function that stand at a first difference
  /// between two classes, with the first pair of classes found.
  llvm::DenseMap<const clang::CallExpr *, Witness> AtDifference;
  /// What the comparisons saw of each call (Sequence.h).
  CompareTrace Trace;
  /// Branch statements whose condition every class tried decides.
  llvm::SmallPtrSet<const clang::Stmt *, 8> Decided;
};

/// Compares the rank classes of FD (computed once per function and TU).
const ClassComparison &compareRankClasses(Engine &E,
                                          const clang::FunctionDecl *FD);

/// Is the divergence that the rank-dependent branch Branch seems to cause
/// at Collective (an outermost call of FD) ruled out by the whole-function
/// comparison: every class decides Branch, and the classes issue
/// Collective at the same position, before any difference between them?
bool ruledOutByRankClasses(Engine &E, const clang::FunctionDecl *FD,
                           const clang::Stmt *Branch,
                           const clang::CallExpr *Collective);
/// Does every class of FD's comparison decide Branch (its condition reads
/// only the rank, the world size and constants there)? The classes of a
/// caller, which read the condition in FD alike, decide it only then.
bool decidedByRankClasses(Engine &E, const clang::FunctionDecl *FD,
                          const clang::Stmt *Branch);
/// Does every pair of rank classes that issue Collective (an API call of
/// FD) at the same position pass it, as argument ArgIndex, values of one
/// name (a broadcast's element that each class reads its own way)?
bool argumentAgreedByRankClasses(Engine &E, const clang::FunctionDecl *FD,
                                 const clang::CallExpr *Collective,
                                 int ArgIndex);
/// Two classes that disagree at Collective, when the comparison found them.
const ClassComparison::Witness *
rankClassWitness(Engine &E, const clang::FunctionDecl *FD,
                 const clang::CallExpr *Collective);

} // namespace collectives
} // namespace distlint
