//===- AnalysisManager.h - Per-function and per-TU analysis results -*- C++
//-*-===//
//
// Behind the Engine facade: collects the user functions and callable
// bindings of the TU, runs the uniformity data-flow of each function once
// (recursion cut: a function in progress answers with what it has), and
// grows the TU-wide facts (rank-varying fields and globals,
// sub-communicators) in rounds until they stop changing.
//
// Memory: what callers need bottom-up (FunctionResult: summary, return and
// throw taint) is kept for every function of the TU; the CFG and the
// per-block states (FunctionBody) only for as many functions as
// Budget::ResultCacheBytes holds (BodyCache.cpp). A dropped body is rebuilt
// by analyzing the function again, which gives the same states because only
// functions whose analysis saw no recursion cut and no TU-fact growth are
// ever dropped.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ApiTable.h"
#include "engine/Budget.h"
#include "engine/EngineFacts.h"
#include "engine/Pinned.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/ErrorPaths.h"
#include "engine/cfg/PrunedControlDependence.h"
#include "engine/collectives/RankClasses.h"
#include "engine/collectives/SequenceBuilder.h"
#include "engine/lattice/Taint.h"
#include "engine/lattice/TuFacts.h"
#include "engine/lattice/VarState.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <array>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace distlint {

using clang::CFGBlock;

/// What the analysis of one function keeps about its body: the CFG facts and
/// the states of every block. Dropped and rebuilt by the ResultCache.
struct FunctionBody {
  std::unique_ptr<FunctionFacts> Facts;
  llvm::DenseMap<const CFGBlock *, VarState> In;
  llvm::DenseMap<const CFGBlock *, Taint> BranchTaint;
  /// Joined taint of each variable over all program points (for lambdas
  /// that capture it).
  VarState AllPoints;
  /// States stateBefore() met while replaying a block: the state before
  /// every kReplayStride-th element, valid while the TU facts stay at
  /// Stamp. Many queries into one long block (a function calling 10,000
  /// helpers, one query per call) then cost linear time, not quadratic.
  struct ReplayCheckpoints {
    unsigned Stamp = 0;
    std::vector<VarState> States; ///< [k]: before element k * stride.
  };
  llvm::DenseMap<const CFGBlock *, ReplayCheckpoints> Checkpoints;
  /// Blocks from which every path ends the job (cfg/FailStop.h).
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
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
  /// Branches B depends on only through an error path's arm (the CFG
  /// without the doomed blocks, less liveControlDependencies).
  std::vector<const CFGBlock *> errorPathDependencies(const CFGBlock *B);
  /// Arms that leave the function on some ranks only while every other
  /// path issues a collective first (cfg/ErrorPaths.h hangingExitArms): the
  /// ranks that stay wait there forever, a hang reported at that
  /// collective. Values are those of the runs that do not hang, so these
  /// arms, like doomed blocks, make no later code control-dependent
  /// (valueControlDependencies). Set by each round of the uniformity
  /// analysis from the branch taints it ran under.
  llvm::SmallPtrSet<const CFGBlock *, 8> HangArms;
  void setHangArms(const llvm::SmallPtrSetImpl<const CFGBlock *> &Arms);
  /// liveControlDependencies less those through a hang arm.
  std::vector<const CFGBlock *> valueControlDependencies(const CFGBlock *B);
  /// Candidate arms (hangingExitArms), found once per body.
  const std::vector<ExitArm> &exitArms(Engine &E);
  /// What the body occupies, estimated from its size (the cache's unit).
  size_t approxBytes() const;

private:
  /// The doomed blocks and the error paths: where the job ends.
  llvm::SmallPtrSet<const CFGBlock *, 16> endedBlocks() const;
  std::optional<std::vector<ExitArm>> ExitArms;
  std::unique_ptr<PrunedControlDependence> HangPruned;
  PrunedControlDependence &pruned();
  std::unique_ptr<PrunedControlDependence> Pruned;
  std::unique_ptr<PrunedControlDependence> DoomedPruned;
  llvm::DenseMap<const CFGBlock *, std::vector<const CFGBlock *>> LiveDeps;
};

/// Facts of one analyzed function, kept for the whole TU.
struct FunctionResult {
  /// The body while it is in memory; read it through a ResidentResult (or
  /// as the analysis that fills it).
  std::unique_ptr<FunctionBody> Body;
  /// Kept when the body is dropped: asking whether a statement of a
  /// function without dead code runs needs no rebuild.
  bool HasUnreachableCode = true;
  FunctionSummary Summary;
  Taint ReturnTaint;
  unsigned ReturnsSeen = 0;
  /// A struct returned by value, field by field (a rank-dependent offset
  /// beside a uniform size), when every return is a local or a braced list.
  /// A field without a value is what the TU-wide field facts say of it (a
  /// local whose field this path does not know). Empty: not known. No
  /// inline room: few functions return structs, and every function of the
  /// TU keeps its result.
  llvm::SmallVector<std::pair<const clang::FieldDecl *, std::optional<Taint>>,
                    0>
      ReturnFields;
  bool ReturnFieldsUnknown = false;
  /// Control taint of throws that leave the function.
  Taint ThrowTaint;
  /// Branch taints (by block ID) the last round of the data-flow ran under,
  /// those that depend on anything: rebuilding the body starts from them.
  /// Kept for every function of the TU, so only what a branch's control
  /// gives the values under it (Taint::addControl), not whole taints.
  struct SeedBranch {
    unsigned BlockId = 0;
    bool Vary = false;
    VaryOrigin Origin;
    uint64_t Params = 0;
  };
  llvm::SmallVector<SeedBranch, 0> ControlSeed;
  /// Pointer/reference parameters the function writes with values that do
  /// not vary by themselves: all-reduced / broadcast in place (directly or
  /// through helpers), or assigned from other parameters (FromParams).
  struct OutParamWrite {
    unsigned Index = 0;
    uint64_t FromParams = 0;
    /// Written on every path: what the caller passed in is gone.
    bool Overwritten = false;
    /// Only the contents the caller's object holds are written: a tensor
    /// the body never rebinds (`t = ...`). Its shape stays the caller's.
    bool InPlace = false;
  };
  llvm::SmallVector<OutParamWrite, 2> OutParamWrites;
  /// Sequences taken by reference whose length the body keeps on every
  /// path (bit i: parameter i): it writes their elements at most.
  uint64_t LengthKeptParams = 0;
  /// Fields of what a pointer/reference parameter designates that every
  /// path agrees on by the exit (`ncclAllReduce(m->grads, ...)`): the
  /// caller's object has them agreed, and only them.
  llvm::SmallVector<std::pair<unsigned, const clang::FieldDecl *>, 0>
      AgreedParamFields;
  /// Fields assigned from parameters: field -> the parameters (mask) whose
  /// values reach it. One entry per field (masks are or-ed), at most
  /// Budget::ParamFieldWrites: a recursive call re-applies the function's
  /// own entries, so a list would double on every visit.
  struct ParamFieldWrite {
    uint64_t Params = 0;
    /// Every write stores one element (`secs_[stage] += s`): what the
    /// callers pass changes the contents, never the length.
    bool ElementsOnly = true;
    /// Every write is into an object the function owns (a local struct it
    /// fills and returns): a branch around the call decides nothing about
    /// the callers' objects, which get the result by value.
    bool OwnedObjectsOnly = true;
  };
  llvm::MapVector<const clang::FieldDecl *, ParamFieldWrite> ParamToField;
  /// Fields read through a parameter object the body never writes (`c.layers`
  /// of a `const Config &c`): they hold what the callers' objects hold there
  /// (UniformityAnalysis::passedFields), not whatever other objects of the
  /// type were given in the TU. At most Budget::ParamFieldWrites entries;
  /// past them the TU's facts are read (ParamFieldReadsFull).
  llvm::SmallVector<std::pair<unsigned, const clang::FieldDecl *>, 0>
      ParamFieldReads;
  bool ParamFieldReadsFull = false;
  bool Done = false;
  /// Clang built a CFG for the body (so a dropped Body can be rebuilt).
  bool HasCfg = false;
  /// Another function's analysis asked for this one (it is a callee).
  bool Called = false;
  /// Collective facts (filled lazily, after the uniformity rounds).
  enum { NotStarted, InProgress, Finished } CollectiveState = NotStarted;
  enum {
    DoomedNotStarted,
    DoomedInProgress,
    DoomedDone
  } DoomedState = DoomedNotStarted;
  /// Every path from the entry ends the job (the entry block is doomed).
  bool EntryDoomed = false;

  FunctionFacts *facts() const { return Body ? Body->Facts.get() : nullptr; }

  //--- ResultCache bookkeeping -------------------------------------------
  /// The analysis (or a rebuild of the body) is running.
  bool Analyzing = false;
  /// Rebuilding the body gives the same states: the analysis saw no
  /// function in progress and the TU facts did not grow meanwhile.
  bool Reproducible = false;
  /// GrowthStamp when the analysis ended.
  unsigned Stamp = 0;
  /// Holders of the body (ResidentResult, FactsRef); never dropped while > 0.
  unsigned Pins = 0;
  /// Accounted size of Body while it is in the cache's LRU list.
  size_t Bytes = 0;
  bool Listed = false;
  /// The body is being rebuilt (into a scratch result, then moved here).
  bool Rebuilding = false;
  std::list<FunctionResult *>::iterator LruPos;
};

class AnalysisManager;

/// A FunctionResult whose Body is in memory and stays there while this
/// handle lives (the ResultCache drops only bodies nobody holds).
class ResidentResult : public Pinned<FunctionResult> {
public:
  ResidentResult() = default;
  explicit ResidentResult(FunctionResult *R)
      : Pinned(R, R ? &R->Pins : nullptr) {}
  FunctionBody &body() const { return *get()->Body; }
  FunctionFacts &facts() const { return *get()->Body->Facts; }
};

/// A helper's call analyzed with its arguments bound: the callee and, per
/// argument, its spelling and what the analysis knows of it there.
struct SpecializationKey {
  struct Argument {
    std::string Spelling;
    LauncherVariable Names = LauncherVariable::None;
    bool Varies = false;
    bool operator<(const Argument &O) const {
      return std::tie(Spelling, Names, Varies) <
             std::tie(O.Spelling, O.Names, O.Varies);
    }
  };
  const clang::FunctionDecl *Callee = nullptr;
  std::vector<Argument> Args;
  bool operator<(const SpecializationKey &O) const {
    return std::tie(Callee, Args) < std::tie(O.Callee, O.Args);
  }
};

/// How much of what a method's object holds reaches its result: nothing,
/// the values only (an accessor of a tensor updated in place: its shape is
/// the object's own), or all of it. Ordered: a later answer only grows.
enum class ObjectReach : uint8_t { No, Values, Whole };

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
  /// Engine::enclosingFunction's last answers, by statement address.
  std::array<std::pair<const clang::Stmt *, const clang::FunctionDecl *>, 256>
      EnclosingMemo{};
  /// Functions that return a sub-communicator on every path (asked at each
  /// call whose value is kept: answered once per function).
  llvm::DenseMap<const clang::FunctionDecl *, bool> ReturnsSubCommunicator;
  std::vector<const clang::FunctionDecl *> UserFunctions;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionResult>>
      Results;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFacts>>
      FactsCache;
  /// Collective-sequence trees of callees that were complete (nothing cut),
  /// built once the TU facts were final: callers inline them without the
  /// callee's body, which the result cache may have dropped.
  llvm::DenseMap<const clang::FunctionDecl *, collectives::CalleeTrees::Built>
      CompleteTrees;
  /// The rank-class comparison of each function asked about (after the TU
  /// facts are final).
  std::map<const clang::FunctionDecl *,
           std::unique_ptr<collectives::ClassComparison>>
      RankClassResults;
  /// TU-wide facts, grown across rounds (lattice/TuFacts.h).
  TuFacts Tu;
  /// Return values of helpers called with a launcher variable's name
  /// (`envInt("WORLD_SIZE", 1)`), analyzed with that argument bound.
  std::map<SpecializationKey, Taint> Specialized;
  /// Per method: does what its object holds reach its result (an analysis
  /// of the body with the object varying, its fields read through the TU
  /// facts where those say what each object holds)? With the facts' stamp
  /// of an answer short of Whole: facts only grow, so Whole stays.
  llvm::DenseMap<const clang::FunctionDecl *, std::pair<ObjectReach, unsigned>>
      ObjectReachesReturn;
  int SpecializationDepth = 0;
  /// std::function / function-pointer variables and fields -> target.
  llvm::DenseMap<const clang::ValueDecl *, const clang::FunctionDecl *>
      Bindings;
  /// Containers of callables (variables, fields) -> the functions handed
  /// to them (`hooks.push_back([this](int e) {...})`), in source order.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::FunctionDecl *, 2>>
      Registered;
  /// Each registration of a callable in a container: the function and the
  /// call that hands it over (the same function may be registered twice).
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<CallableRegistration, 2>>
      Registrations;
  /// Range-for variables -> the container they iterate (`for (auto &h :
  /// hooks)`): a call of one runs a function registered there.
  llvm::DenseMap<const clang::ValueDecl *, const clang::ValueDecl *> ElementOf;
  /// Objects whose dynamic class is known.
  llvm::DenseMap<const clang::VarDecl *, const clang::CXXRecordDecl *> DynTypes;
  /// Holders given different targets or classes: in neither map.
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> Ambiguous;
  /// Every function a callable holder was given (`step = rank == 0 ?
  /// lead : follow`), in source order.
  llvm::DenseMap<const clang::ValueDecl *,
                 llvm::SmallVector<const clang::FunctionDecl *, 2>>
      Candidates;
  /// Engine::overriders, per canonical method (asked for every virtual
  /// call the collective summaries meet).
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<const clang::FunctionDecl *, 4>>
      Overriders;
  /// Vector-like variables holding tensor variables (for in-place ops).
  llvm::DenseMap<const clang::VarDecl *,
                 llvm::SmallVector<const clang::VarDecl *, 2>>
      Aliases;
  /// Distinct pairs in Aliases: a function whose analysis added one is not
  /// reproducible (a second analysis would start with it known).
  unsigned AliasCount = 0;
  void addAlias(const clang::VarDecl *Holder, const clang::VarDecl *Tensor);
  /// Moves when the TU facts grow.
  unsigned growthStamp() const { return Tu.stamp(); }
  /// Every limit of the analysis and where it was hit.
  Budget Limits;

  void prepare();
  void collect();
  /// The result of FD, analyzed on first use. Its Body may be absent (not
  /// analyzed yet, no CFG, or dropped): what callers need bottom-up
  /// (Summary, ReturnTaint, ThrowTaint, ParamToField) is always there.
  FunctionResult *analyze(const clang::FunctionDecl *FD);
  /// The result of FD with its Body in memory (rebuilt if it was dropped),
  /// held while the handle lives; empty when FD has no CFG.
  ResidentResult resident(const clang::FunctionDecl *FD);
  Taint initialTaint(const clang::VarDecl *VD, const clang::FunctionDecl *FD);
  /// Fail-stop: the call ends the whole job (exit, abort, MPI_Abort,
  /// std::terminate, or a user function that never returns).
  bool failStopCall(const clang::CallExpr *Call);
  bool neverReturns(const clang::FunctionDecl *FD);
  void computeDoomed(const clang::FunctionDecl *FD, FunctionResult &R);

private:
  //--- The body cache (BodyCache.cpp) ----------------------------------
  /// Analyses running, innermost last: a recursion cut makes them all
  /// irreproducible.
  std::vector<FunctionResult *> Running;
  std::list<FunctionResult *> Lru; ///< Droppable bodies, most recent first.
  size_t ListedBytes = 0;
  /// The sizes of the listed bodies: trim() asks for the largest after
  /// every analysis, which must not walk the whole list (10,000 functions).
  std::multiset<size_t> ListedSizes;
  void beginAnalysis(FunctionResult &R);
  void noteRecursionCut(FunctionResult &Open);
  void endAnalysis(FunctionResult &R, unsigned StartStamp,
                   unsigned StartAliases);
  void rebuildBody(const clang::FunctionDecl *FD, FunctionResult &R);
  /// Puts R's body in the LRU list (or moves it to the front).
  void touch(FunctionResult &R);
  void unlist(FunctionResult &R);
  /// Drops unpinned bodies, least recently used first, down to the budget.
  void trim();
  void forgetAll();
};

} // namespace distlint
