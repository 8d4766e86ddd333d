//===- SequenceBuilder.h - Collective sequences from the CFG ----*- C++ -*-===//
//
// Builds the sequence tree (Sequence.h) of a function, or of the arms of one
// of its branches, from its CFG: branches become Alt nodes (joined where
// their live paths meet again, Engine::liveJoin: an arm that ends the job,
// like a status check's `exit(1)`, does not push the join to the function's
// exit), loops Loop nodes, calls of user functions the callee's own tree (its
// summary, so helpers contribute their sequences; recursion yields an empty
// tree), and calls that end the job FailStop. Choice keys: a uniform condition
// is keyed by its structure, so the same test in two arms is the same choice; a
// varying one by its statement.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/collectives/Sequence.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace distlint {

class Engine;
class FunctionFacts;

namespace collectives {

/// Records that a sequence budget (Budget.h: SequenceBlocks, SequenceSteps,
/// SequenceInlineDepth) was hit in FD; the branch concerned then reports
/// nothing. With DISTLINT_DEBUG_BUDGETS set, each hit is also printed to
/// stderr.
void noteBudgetHit(Engine &E, const char *Which, const clang::FunctionDecl *FD);

/// The communicator a direct API call runs on (c10d: the receiver).
const clang::Expr *communicatorOf(const clang::CallExpr *Call,
                                  const api::ApiEntry *Entry);

/// The token a direct API call issues: a collective (not on a
/// sub-communicator whose members the branch chooses) or a blocking
/// point-to-point call. Nullopt for anything else.
std::optional<Token> tokenAt(Engine &E, const clang::CallExpr *Call);

/// Does Call pass the in-place marker where Entry's InPlace argument is
/// (MPI_IN_PLACE), so that this rank's count and type are not read?
bool passesInPlace(Engine &E, const clang::CallExpr *Call,
                   const api::ApiEntry *Entry);

/// Does Call pass (directly, or through a variable the function sets to
/// one) a marker of an inter-communicator's root group (MPI_ROOT,
/// MPI_PROC_NULL) as its root? Then each side passes its own root value by
/// design and the roots are not compared.
bool passesInterRoot(Engine &E, const clang::CallExpr *Call,
                     const api::ApiEntry *Entry);

/// The induction variable of a counted loop whose trip count only uniform
/// values decide: `for (i = A; i < B; ++i)` (or `i += C`) with A, B and C
/// uniform, i written nowhere in the body, and no early exit. Inside a rank
/// branch the induction variable varies by control only: every rank that
/// runs the loop runs it the same number of times. Null otherwise.
const clang::VarDecl *countedUniformLoop(Engine &E, const clang::ForStmt *F);
/// A counted loop (as above) whose trip count is the same on every rank,
/// also when its start and bound are not: they differ by a uniform amount
/// (`for (b = first; b < first + n; ++b)`, `i = r * n; i < (r + 1) * n`),
/// neither written in the loop. Its counter (returned; null otherwise)
/// still differs between ranks. CallerParams: parameters (bit i:
/// parameter i) whose values some caller passes differently, on which the
/// trip count must not depend either.
const clang::VarDecl *uniformTripCount(Engine &E, const clang::ForStmt *F,
                                       uint64_t CallerParams = 0);

/// Does this call end the whole job (exit, abort, MPI_Abort, a user
/// function that never returns)?
bool endsJob(Engine &E, const clang::CallExpr *Call);

/// Key of the choice a branch or loop terminator makes.
ChoiceKey choiceKey(Engine &E, const clang::Stmt *Terminator);
/// The outcome of a two-way branch whose condition tests a value the
/// data-flow knows to be one constant (`mode = FLUSH; ... if (mode ==
/// FLUSH_ALL)`), if it is decided so.
std::optional<bool> decidedCondition(Engine &E, const clang::Stmt *Terminator);
/// A counted loop over peers whose every call is a send or receive with the
/// peer its counter names: seen from any one peer, one exchange.
bool oneExchangePerPeer(Engine &E, const clang::Stmt *T, const NodeRef &Body);
/// A counted loop that runs at least once.
bool atLeastOnce(Engine &E, const clang::Stmt *T);

/// Trees of called user functions, shared by the builders of one question:
/// each callee is built once; recursion yields nothing, and so do call
/// chains deeper than Budget::SequenceInlineDepth (a budget hit).
struct CalleeTrees {
  struct Built {
    NodeRef Tree;
    /// Levels of inlining it spans (1: no callee inlined).
    unsigned Height = 1;
    /// Nothing in it was cut (recursion, depth) and no budget was hit: the
    /// same tree wherever it is inlined within Budget::SequenceInlineDepth.
    bool Complete = true;
  };
  llvm::DenseMap<const clang::FunctionDecl *, Built> Done;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> InProgress;
  /// Of the tree being built: a callee was cut, and its callees' height.
  bool Cut = false;
  unsigned CalleeHeight = 0;
};

/// Everything FD issues, entry to exit (its callees inlined).
NodeRef functionSequence(Engine &E, const clang::FunctionDecl *FD,
                         CalleeTrees &Callees);

class SequenceBuilder {
public:
  SequenceBuilder(Engine &E, FunctionFacts &F, CalleeTrees &Callees);

  /// Everything the function issues, entry to exit.
  NodeRef function();
  /// Each successor of Branch up to the branch's join, in successor order
  /// (then / else, loop body / exit, switch cases).
  /// WholeJoin: the arms meet where they do in the whole CFG, not in the
  /// one without error paths (a status check the rank decides).
  std::vector<NodeRef> arms(const clang::CFGBlock *Branch,
                            bool WholeJoin = false);
  bool budgetHit() const { return BudgetHit; }

private:
  struct Walk {
    NodeRef N;
    const clang::CFGBlock *EndedAt = nullptr; ///< The stop reached, if any.
  };
  Walk walk(const clang::CFGBlock *B,
            llvm::ArrayRef<const clang::CFGBlock *> Stops);
  NodeRef elements(const clang::CFGBlock *B, bool &EndsJob);

  Engine &E;
  FunctionFacts &F;
  CalleeTrees &Callees;
  llvm::SmallPtrSet<const clang::CFGBlock *, 32> OnPath;
  /// The branch whose arms are being built: an arm that comes back to it
  /// (its loop's next iteration) issues its block again before the test.
  const clang::CFGBlock *ArmsOf = nullptr;
  int Budget;
  bool BudgetHit = false;
};

} // namespace collectives
} // namespace distlint
