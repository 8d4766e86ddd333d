//===- Engine.h - The analysis every rule shares ----------------*- C++ -*-===//
//
// One Engine per translation unit. It answers the questions rules ask:
//   - does this call issue a collective (directly or through user code)?
//   - is this value / branch the same on every rank?
//   - which rank-dependent branch makes this collective divergent, and
//     where do the ordered collective sequences of its arms first differ
//     (collectives/: Sequence, SequenceBuilder, Divergence, Questions)?
//   - is this loop a training loop, is this statement periodic?
// Everything is computed lazily and cached: per-function CFG facts
// (FunctionFacts), per-function summaries bottom-up over the call graph
// (FunctionSummary), and a forward rank-uniformity data-flow (uniformity/).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "api/ApiTable.h"
#include "engine/Budget.h"
#include "engine/EngineFacts.h"
#include "engine/Pinned.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace distlint {

class Engine;
class FunctionFacts;   // CFG, post-dominators, control dependence (cfg/)
class AnalysisManager; // per-function and per-TU results (AnalysisManager.h)
class ResidentResult;
namespace collectives {
struct Node;
struct CalleeTrees;
class RankClassComparer;
std::shared_ptr<const Node> functionSequence(Engine &E,
                                             const clang::FunctionDecl *FD,
                                             CalleeTrees &Callees);
} // namespace collectives

/// A function's CFG facts, kept in memory while a FactsRef to them lives:
/// the engine drops the facts of functions nobody holds once its result
/// cache is full (Budget::ResultCacheBytes) and rebuilds them on demand.
using FactsRef = Pinned<FunctionFacts>;

class Engine {
public:
  Engine(clang::ASTContext &Ctx, const api::ApiIndex &Api);
  ~Engine();

  clang::ASTContext &context() const { return Ctx; }
  const api::ApiIndex &api() const { return Api; }

  /// User code: not a system header and not a file outside the project
  /// (e.g. -isystem third-party code). Rules never report elsewhere.
  bool isUserCode(clang::SourceLocation Loc) const;
  bool isUserCode(const clang::Decl *D) const;

  /// Every analysis limit (Budget.h), with the record of where one was hit.
  Budget &limits();

  //--- Calls -------------------------------------------------------------
  /// The function a call runs: direct callee, lambda operator(),
  /// std::function variables bound to a lambda, virtual calls whose
  /// dynamic type is known.
  const clang::FunctionDecl *resolveCallee(const clang::CallExpr *Call);
  /// A call of an element of a container of callables (`for (auto &h :
  /// hooks) h(e);`, `hooks[i](e)`): the functions registered in it (with
  /// one, resolveCallee gives it). Empty for other calls.
  llvm::ArrayRef<const clang::FunctionDecl *>
  registeredTargets(const clang::CallExpr *Call);
  /// Such a call's registrations, one per call that handed a callable over.
  llvm::ArrayRef<CallableRegistration>
  registrations(const clang::CallExpr *Call);
  /// A call through a callable holder given different functions (`step =
  /// rank == 0 ? lead : follow; step();`): each of them. Empty when the
  /// holder has one target (resolveCallee gives it) or none known.
  llvm::ArrayRef<const clang::FunctionDecl *>
  callCandidates(const clang::CallExpr *Call);
  /// Row of role R for this call's callee, or null.
  const api::ApiEntry *apiRole(const clang::CallExpr *Call, api::Role R);
  /// `exit(EXIT_SUCCESS)`: a call that ends the process with status 0 (its
  /// FailStop row's ExitStatus argument). The program's normal end, a path
  /// to the exit like `return 0` from main, not a fail-stop.
  bool endsProgramNormally(const clang::CallExpr *Call);
  /// Does this call issue a collective, directly or through user code?
  std::optional<CollectiveSite> collectiveAt(const clang::CallExpr *Call);
  bool issuesCollective(const clang::CallExpr *Call) {
    return collectiveAt(Call).has_value();
  }
  /// Does any call inside S (transitively) have role R? Used for
  /// "loop body reaches a backward pass / optimizer step / collective".
  bool reaches(const clang::Stmt *S, api::Role R);
  /// Same for a whole function, through its calls.
  bool functionReaches(const clang::FunctionDecl *FD, api::Role R);

  const FunctionSummary &summary(const clang::FunctionDecl *FD);

  //--- Uniformity --------------------------------------------------------
  /// Is E (evaluated where it stands in its function) the same on all ranks?
  UniformityAnswer uniformity(const clang::Expr *E);
  /// Does the shape (length, tensor sizes) of E differ between ranks, as
  /// opposed to only its values? Returns where the difference comes from.
  std::optional<VaryOrigin> shapeVaries(const clang::Expr *E);
  /// For an E whose shape is agreed here but depends on parameters of its
  /// function (`exchange(pg, idx)` gathers `{idx}`): a caller, through any
  /// number of calls, that passes an argument making it differ.
  std::optional<std::pair<VaryOrigin, const clang::CallExpr *>>
  shapeVariesFromCallers(const clang::Expr *E);
  /// Is the branch of this terminator (if/while/for/switch/?:/&&/||)
  /// taken the same way on all ranks?
  UniformityAnswer branchUniformity(const clang::Stmt *Terminator);
  /// Does every call of PD's function in the TU pass the caller's rank for
  /// PD (directly, or through parameters of callers that do, up to the
  /// caller depth)? False without calls, and when PD is written in its
  /// function. A helper given the rank (`prepare(rank)`) branches on the
  /// rank, so its rank classes can be compared like its caller's.
  bool rankAtEveryCall(const clang::ParmVarDecl *PD, int Depth = 0);
  /// Does every call of FD issue what it issues at the same position in
  /// each rank class of its caller, which decides Branch (a rank branch of
  /// FD): `enter(rank)` ... `leave(rank)` each unbalanced, balanced together?
  bool balancedAtEveryCall(const clang::FunctionDecl *FD,
                           const clang::Stmt *Branch, int Depth = 0);

  //--- Control flow ------------------------------------------------------
  /// Enclosing function of a statement (null for global initializers).
  const clang::FunctionDecl *enclosingFunction(const clang::Stmt *S);
  /// FD's CFG facts; hold the FactsRef while using them (and the blocks).
  FactsRef facts(const clang::FunctionDecl *FD);
  /// Can S never run: it follows a `return` (GTEST_SKIP()), a noreturn
  /// call or a never-taken branch in its function? False when unknown.
  bool neverRuns(const clang::Stmt *S);
  /// Where the paths leaving B (a block of FD) meet again when the paths
  /// that end the job are ignored: after `if (err) exit(1);` that is the
  /// next statement, not the function's exit. Null at the exit.
  const clang::CFGBlock *liveJoin(const clang::FunctionDecl *FD,
                                  const clang::CFGBlock *B);
  /// Terminators (branch statements) that S is control-dependent on,
  /// innermost first.
  std::vector<const clang::Stmt *> controllingBranches(const clang::Stmt *S);
  /// Innermost loop statement (for/while/do/range-for) enclosing S in its
  /// function, or null.
  const clang::Stmt *enclosingLoop(const clang::Stmt *S);
  /// A loop whose body reaches backward / optimizer step / forward /
  /// collective, directly or through calls.
  bool isTrainingLoop(const clang::Stmt *Loop);
  /// S runs only on some iterations: guarded by `step % N == 0`-style
  /// conditions (or a counter compared to a stride) inside Loop.
  bool isPeriodicallyGuarded(const clang::Stmt *S, const clang::Stmt *Loop);

  /// Parent map helper.
  const clang::Stmt *parentStmt(const clang::Stmt *S);

  //--- Divergence (rank-divergent-collective and friends) ----------------
  /// User-code functions with bodies in this TU (incl. lambdas, methods).
  const std::vector<const clang::FunctionDecl *> &userFunctions();
  /// Calls in FD that issue a collective (directly or through user code),
  /// excluding collectives on sub-communicators.
  std::vector<CollectiveSite> collectiveSites(const clang::FunctionDecl *FD);
  /// Why not every rank reaches this collective call, if that can happen.
  struct Divergence {
    const clang::Stmt *Branch = nullptr;    ///< Terminator that diverges.
    const clang::Expr *Condition = nullptr; ///< Its condition, if any.
    bool IsLoop = false;                    ///< Trip count differs.
    VaryOrigin Origin;                      ///< Where the difference starts.
    /// Set when the divergent value reaches FD as an argument: the call
    /// that passed it.
    const clang::CallExpr *PassedAt = nullptr;
    /// Two ranks of one world that disagree here, when the whole-function
    /// comparison of rank classes found them (collectives/RankClasses.h).
    struct RankPair {
      int64_t Here = 0, Other = 0, World = 1;
      /// What rank Other issues at that position (null: nothing more).
      const clang::CallExpr *OtherSite = nullptr;
    };
    std::optional<RankPair> Ranks;
    /// A virtual call whose object's class depends on the rank: two
    /// overriders that issue different collectives.
    const clang::FunctionDecl *Overrider = nullptr, *OtherOverrider = nullptr;
    /// On a sub-communicator: its members disagree (a branch on their rank
    /// in it), not the world's rank classes (collectives/Members.cpp).
    bool AmongMembers = false;
  };
  std::optional<Divergence> divergenceAt(const clang::CallExpr *Collective);
  /// The API collectives of FD on known sub-communicators (collectiveSites
  /// leaves them out), and whether their members disagree on reaching one.
  std::vector<const clang::CallExpr *>
  subCommunicatorCollectives(const clang::FunctionDecl *FD);
  std::optional<Divergence>
  memberDivergenceAt(const clang::CallExpr *Collective);
  /// A collective on a communicator that a split hands MPI_COMM_NULL to the
  /// ranks whose colour is MPI_UNDEFINED, reached by every rank (no branch on
  /// the rank or on the communicator guards it, in its function or at the
  /// calls that lead to it): those ranks call it without being members.
  struct NullCommunicatorUse {
    const clang::CallExpr *Split = nullptr; ///< The split that writes it.
    const clang::Expr *Color = nullptr;     ///< Its colour argument.
  };
  std::optional<NullCommunicatorUse>
  nullCommunicatorAt(const clang::CallExpr *Collective);
  /// Two arms of a branch that differs between ranks that issue the same
  /// collectives, in the same order on the world's communicators, but in
  /// another order across a sub-communicator whose groups hold ranks of both
  /// arms (collectives/CrossOrder.cpp): each waits for the other.
  struct CrossOrder {
    const clang::CallExpr *Here = nullptr, *Other = nullptr; ///< Arms' calls.
    const clang::CallExpr *HereCollective = nullptr, *OtherCollective = nullptr;
    const clang::Expr *Condition = nullptr;
    VaryOrigin Origin;
    const clang::CallExpr *Split = nullptr; ///< Creates the sub-communicator.
  };
  std::vector<CrossOrder>
  crossCommunicatorOrders(const clang::FunctionDecl *FD);
  /// A send (or receive) to a peer that a branch on rank-local data skips,
  /// while the receive (send) it pairs with, from that same peer variable on
  /// the same communicator, is made on every rank (collectives/Peers.cpp).
  struct UnmatchedPeer {
    const clang::CallExpr *Skipped = nullptr;
    const clang::CallExpr *Partner = nullptr;
    const clang::Expr *Condition = nullptr;
    VaryOrigin Origin;
  };
  std::vector<UnmatchedPeer>
  unmatchedPointToPoint(const clang::FunctionDecl *FD);
  /// The definitions in this TU of a virtual method and of every method
  /// that overrides it (`r->sync()` may run any of them when the class of
  /// `*r` is not known).
  llvm::SmallVector<const clang::FunctionDecl *, 4>
  overriders(const clang::FunctionDecl *Method);
  /// Arguments of a direct API collective that must agree across ranks but
  /// don't: what disagrees, the argument expression, the origin.
  struct ArgumentMismatch {
    AgreedArgument What;
    const clang::Expr *Arg;
    VaryOrigin Origin;
    /// Where a caller passes the value that differs, when the argument is a
    /// parameter of the collective's function (`reduce_n(rank + 1)`).
    const clang::CallExpr *PassedAt = nullptr;
  };
  std::vector<ArgumentMismatch>
  mismatchedArguments(const clang::CallExpr *Collective);
  /// A collective on a communicator built by a split / new_group, or a
  /// call of a helper whose collectives all use communicators it is given,
  /// given such communicators: only their members take part.
  bool isOnSubCommunicator(const clang::CallExpr *Call);
  /// Built by a split / new_group (or a copy of one).
  bool isSubCommunicator(const clang::Expr *Comm, int Depth = 0);
  /// Adds to Mask the parameters of FD that give Site its communicators;
  /// false if one is not a parameter.
  bool onParamCommunicators(const clang::FunctionDecl *FD,
                            const CollectiveSite &Site, uint64_t &Mask);

private:
  friend class AnalysisManager;
  friend class UniformityAnalysis;
  friend class collectives::RankClassComparer;
  friend std::shared_ptr<const collectives::Node>
  collectives::functionSequence(Engine &E, const clang::FunctionDecl *FD,
                                collectives::CalleeTrees &Callees);
  // Collective questions (collectives/Questions.cpp).
  void fillCollectiveFacts(const clang::FunctionDecl *FD);
  std::optional<Divergence> thrownPast(const clang::CallExpr *Collective);
  /// A call of a container's element whose collective-issuing callable was
  /// registered under a branch on rank-local data.
  std::optional<Divergence> registrationDivergence(const clang::CallExpr *Call);
  /// Does Branch (of FD, resident as R) test the status of a project
  /// function whose result the rank decides (an error path by shape only)?
  bool statusDecidedByRank(const clang::FunctionDecl *FD,
                           const ResidentResult &R,
                           const clang::CFGBlock *Branch);
  std::vector<const clang::CallExpr *> callersOf(const clang::FunctionDecl *FD);
  /// FD's CFG without its states, for questions answered with AST nodes
  /// only: the resident body's facts when it is in memory, else a CFG built
  /// into Transient (no data-flow rerun; its blocks are not the body's).
  FactsRef cfgOnly(const clang::FunctionDecl *FD,
                   std::unique_ptr<FunctionFacts> &Transient);
  /// FD's parameters whose values its callers give precisely: numbers by
  /// value, and objects whose fields FD reads field by field
  /// (FunctionResult::ParamFieldReads). What another object reaches is
  /// known for the object as a whole only.
  uint64_t paramsKnownPerCaller(const clang::FunctionDecl *FD);
  std::optional<std::pair<VaryOrigin, const clang::CallExpr *>>
  paramVaries(const clang::FunctionDecl *FD, uint64_t Mask, int Depth,
              bool ShapeOnly = false, bool SkipDivergentCalls = false);
  /// Does a caller pass a value for the parameters Params of FD that makes
  /// an agreed argument computed from them differ between ranks?
  std::optional<std::pair<VaryOrigin, const clang::CallExpr *>>
  paramArgumentVaries(const clang::FunctionDecl *FD, uint64_t Params);
  /// The first split (a CommSplit row's call) in the TU's project code that
  /// writes the communicator Comm names, or null.
  const clang::CallExpr *splitWriting(const clang::Decl *Comm);
  /// Those splits by the communicator each writes; built on first use.
  std::optional<llvm::DenseMap<const clang::Decl *, const clang::CallExpr *>>
      SplitsByComm;
  /// Does S run on every rank that enters its function, as far as the
  /// branches around it say (none varies between ranks or tests Comm), and
  /// does its function run on every rank (main, or only such calls lead to
  /// it, up to Depth callers)?
  bool runsOnEveryRank(const clang::Stmt *S, const clang::Decl *Comm,
                       int Depth);
  bool CallSitesBuilt = false;
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<const clang::CallExpr *>>
      CallSites;
  clang::ASTContext &Ctx;
  const api::ApiIndex &Api;
  std::unique_ptr<AnalysisManager> P;
};

} // namespace distlint
