//===- AnalysisManager.h - Per-function and per-TU analysis results -*- C++
//-*-===//
//
// Behind the Engine facade: collects the user functions and callable
// bindings of the TU, runs the uniformity data-flow of each function once
// (recursion cut: a function in progress answers with what it has), and
// grows the TU-wide facts (rank-varying fields and globals,
// sub-communicators) in rounds until they stop changing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/Budget.h"
#include "engine/Engine.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/PrunedControlDependence.h"
#include "engine/lattice/Taint.h"
#include "engine/lattice/VarState.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace distlint {

using clang::CFGBlock;

/// Facts of one analyzed function.
struct FunctionResult {
  std::unique_ptr<FunctionFacts> Facts;
  llvm::DenseMap<const CFGBlock *, VarState> In;
  llvm::DenseMap<const CFGBlock *, Taint> BranchTaint;
  FunctionSummary Summary;
  Taint ReturnTaint;
  unsigned ReturnsSeen = 0;
  /// Control taint of throws that leave the function.
  Taint ThrowTaint;
  /// Joined taint of each variable over all program points (for lambdas
  /// that capture it).
  VarState AllPoints;
  /// Pointer/reference parameters whose contents are the same on every rank
  /// when the function returns (all-reduced / broadcast in place, directly
  /// or through helpers).
  llvm::SmallVector<unsigned, 2> UniformOutParams;
  /// Fields assigned from parameters: field -> parameter mask.
  std::vector<std::pair<const clang::FieldDecl *, uint64_t>> ParamToField;
  bool Done = false;
  /// States stateBefore() met while replaying a block: the state before
  /// every kReplayStride-th element, valid while the TU facts stay at
  /// Stamp. Many queries into one long block (a function calling 10,000
  /// helpers, one query per call) then cost linear time, not quadratic.
  struct ReplayCheckpoints {
    unsigned Stamp = 0;
    std::vector<VarState> States; ///< [k]: before element k * stride.
  };
  llvm::DenseMap<const CFGBlock *, ReplayCheckpoints> Checkpoints;
  /// Collective facts (filled lazily, after the uniformity rounds).
  enum { NotStarted, InProgress, Finished } CollectiveState = NotStarted;
  /// Blocks from which every path ends the job (cfg/FailStop.h).
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
  enum {
    DoomedNotStarted,
    DoomedInProgress,
    DoomedDone
  } DoomedState = DoomedNotStarted;
  /// Failure arms of status checks that leave (engine/ErrorPaths.h): like
  /// doomed blocks, they do not make later code control-dependent.
  llvm::SmallPtrSet<const CFGBlock *, 8> ErrorPaths;
  /// Control dependencies that remain when the paths that end the job are
  /// ignored: after `if (err) exit(1);`, or after `if (rank == 0) {
  /// CHECK(...); }`, the code that follows runs on every rank still alive.
  /// Computed on the CFG without its doomed blocks (own post-dominators).
  const std::vector<const CFGBlock *> &
  liveControlDependencies(const CFGBlock *B);
  /// Where the paths leaving B meet again when the paths that end the job
  /// are ignored: B's immediate post-dominator in the same pruned CFG (the
  /// full CFG's for doomed blocks, whose paths all end the job).
  const CFGBlock *liveImmediatePostDominator(const CFGBlock *B);

private:
  PrunedControlDependence &pruned();
  std::unique_ptr<PrunedControlDependence> Pruned;
  llvm::DenseMap<const CFGBlock *, std::vector<const CFGBlock *>> LiveDeps;
};

/// The per-TU state behind Engine (Engine::P).
class AnalysisManager {
public:
  Engine &E;
  explicit AnalysisManager(Engine &E) : E(E) {}
  ~AnalysisManager();
  /// Library functions with inline bodies reached from user code (calls and
  /// constructions), analyzed for summaries with the user functions.
  std::vector<const clang::FunctionDecl *> TaughtFunctions;
  bool TaughtBudgetHit = false;
  void collectTaught();

  bool Prepared = false;
  bool Preparing = false;
  std::vector<const clang::FunctionDecl *> UserFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionResult>>
      Results;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFacts>>
      FactsCache;
  /// TU-wide facts, grown across rounds.
  llvm::DenseMap<const clang::FieldDecl *, Taint> FieldVary;
  /// Value range of each user field over every write seen in the TU
  /// (absent: no write seen; nullopt: unknown).
  llvm::DenseMap<const clang::FieldDecl *, std::optional<IntRange>> FieldRange;
  /// Return values of helpers called with a launcher variable's name
  /// (`envInt("WORLD_SIZE", 1)`), analyzed with that argument bound.
  std::map<std::pair<const clang::FunctionDecl *, std::string>, Taint>
      Specialized;
  int SpecializationDepth = 0;
  llvm::DenseMap<const clang::VarDecl *, Taint> GlobalVary;
  llvm::SmallPtrSet<const clang::VarDecl *, 8> SubComms;
  /// std::function / function-pointer variables and fields -> target.
  llvm::DenseMap<const clang::ValueDecl *, const clang::FunctionDecl *>
      Bindings;
  /// Objects whose dynamic class is known.
  llvm::DenseMap<const clang::VarDecl *, const clang::CXXRecordDecl *> DynTypes;
  /// Vector-like variables holding tensor variables (for in-place ops).
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      Aliases;
  unsigned GrowthStamp = 0;
  /// Every limit of the analysis and where it was hit.
  Budget Limits;

  void prepare();
  void collect();
  FunctionResult *analyze(const clang::FunctionDecl *FD);
  Taint initialTaint(const clang::VarDecl *VD, const clang::FunctionDecl *FD);
  /// Fail-stop: the call ends the whole job (exit, abort, MPI_Abort,
  /// std::terminate, or a user function that never returns).
  bool failStopCall(const clang::CallExpr *Call);
  bool neverReturns(const clang::FunctionDecl *FD);
  void computeDoomed(const clang::FunctionDecl *FD, FunctionResult &R);
};

} // namespace distlint
