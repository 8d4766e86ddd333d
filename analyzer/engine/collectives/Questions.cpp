//===- Questions.cpp - The engine's collective and divergence questions ---===//
//
// The Engine facade's answers about collectives (Engine.h, "Divergence"):
// which calls issue one, the per-function collective summary, which rank-
// dependent branch (or throw) makes a collective divergent, with the ordered
// comparison of its arms (Divergence.h), and which arguments that must
// agree differ between ranks (Arguments.cpp). Built on the uniformity results
// of the AnalysisManager.
//
//===----------------------------------------------------------------------===//
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/EngineCache.h"
#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/cfg/ErrorPaths.h"
#include "engine/collectives/Dispatch.h"
#include "engine/collectives/Divergence.h"
#include "engine/collectives/RankClasses.h"
#include "engine/collectives/SequenceBuilder.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace distlint {

bool Engine::isSubCommunicator(const Expr *Comm, int Depth) {
  if (!Comm || Depth > P->Limits.CallerDepth)
    return false;
  P->prepare();
  // The caller's own communicator: its collectives wait for nobody else.
  if (mayExpandMacro(Comm, api::selfCommunicatorName(), Ctx))
    return true;
  if (const FieldDecl *F = handleField(Comm);
      F && P->Tu.isSubCommunicatorField(F))
    return true;
  if (const VarDecl *VD = baseVar(Comm))
    if (P->Tu.isSubCommunicator(VD))
      return true;
  const auto *Inner = dyn_cast<CallExpr>(strip(Comm));
  if (!Inner)
    return false;
  if (apiRole(Inner, api::Role::CommSplit))
    return true;
  // A getter or factory of the project (`topo.stage_comm()`) whose every
  // return value is one.
  const FunctionDecl *Callee = resolveCallee(Inner);
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->hasBody() || !isTaughtDecl(*this, Def))
    return false;
  return everyReturnValue(
      Def, [&](const Expr *X) { return isSubCommunicator(X, Depth + 1); });
}

bool Engine::isOnSubCommunicator(const CallExpr *Call) {
  if (const api::ApiEntry *Entry = apiRole(Call, api::Role::Collective)) {
    // Creating a communicator (ncclCommInitRank) waits for its own members:
    // those of the communicator it writes.
    if (Entry->Facts.CreatesCommunicator && Entry->Args.Comm < 0)
      if (const api::ApiEntry *Init = apiRole(Call, api::Role::CommInit))
        if (Init->Args.Out >= 0 &&
            unsigned(Init->Args.Out) < Call->getNumArgs())
          return isSubCommunicator(Call->getArg(Init->Args.Out));
    return isSubCommunicator(collectives::communicatorOf(Call, Entry));
  }
  // A helper whose collectives all use the communicators it is given.
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD || !FD->hasBody() || !isTaughtDecl(*this, FD))
    return false;
  const FunctionSummary &S = summary(FD);
  if (!S.CollectivesOnParamComms)
    return false;
  llvm::ArrayRef<const Expr *> Args = splitCall(Call, FD).second;
  for (unsigned I = 0; I < 64; ++I)
    if (S.CollectiveCommParams & (uint64_t(1) << I))
      if (I >= Args.size() || !isSubCommunicator(Args[I]))
        return false;
  return true;
}

namespace {
/// The parameter of FD that Comm names, if it is one.
std::optional<unsigned> paramIndex(const FunctionDecl *FD, const Expr *Comm) {
  const auto *PD =
      dyn_cast_or_null<ParmVarDecl>(Comm ? baseVar(Comm) : nullptr);
  if (!PD || PD->getDeclContext() != FD || PD->getFunctionScopeIndex() >= 64)
    return std::nullopt;
  return PD->getFunctionScopeIndex();
}
} // namespace

bool Engine::onParamCommunicators(const FunctionDecl *FD,
                                  const CollectiveSite &Site, uint64_t &Mask) {
  if (Site.Entry) {
    auto I = paramIndex(FD, collectives::communicatorOf(Site.Call, Site.Entry));
    if (I)
      Mask |= uint64_t(1) << *I;
    return I.has_value();
  }
  const FunctionSummary &Callee = summary(Site.Callee);
  if (!Callee.CollectivesOnParamComms)
    return false;
  llvm::ArrayRef<const Expr *> Args = splitCall(Site.Call, Site.Callee).second;
  for (unsigned I = 0; I < 64; ++I)
    if (Callee.CollectiveCommParams & (uint64_t(1) << I)) {
      auto J = I < Args.size() ? paramIndex(FD, Args[I]) : std::nullopt;
      if (!J)
        return false;
      Mask |= uint64_t(1) << *J;
    }
  return true;
}

std::optional<CollectiveSite> Engine::collectiveAt(const CallExpr *Call) {
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD)
    return std::nullopt;
  if (const api::ApiEntry *E = Api.find(FD, api::Role::Collective))
    if (!Api.has(FD, api::Role::PointToPoint))
      return CollectiveSite{Call, E, nullptr, Call};
  if (FD->hasBody() && isTaughtDecl(*this, FD)) {
    const FunctionDecl *Def = FD->getDefinition();
    const FunctionSummary &S = summary(Def ? Def : FD);
    if (S.IssuesCollective)
      return CollectiveSite{Call, nullptr, Def ? Def : FD, S.FirstCollective};
  }
  // A virtual call on an object of unknown class, or a call through a
  // holder given several functions, issues a collective when one of the
  // functions it may run does.
  for (const FunctionDecl *Target :
       collectives::possibleTargets(*this, Call, /*Registered=*/true))
    if (Target != FD && Target->hasBody() && isTaughtDecl(*this, Target))
      if (const FunctionSummary &S = summary(Target); S.IssuesCollective)
        return CollectiveSite{Call, nullptr, Target, S.FirstCollective};
  return std::nullopt;
}

void Engine::fillCollectiveFacts(const FunctionDecl *FD) {
  FunctionResult *Light = P->analyze(FD);
  if (!Light || !Light->HasCfg ||
      Light->CollectiveState != FunctionResult::NotStarted)
    return;
  ResidentResult R = P->resident(FD);
  if (!R)
    return;
  R->CollectiveState = FunctionResult::InProgress;
  FunctionSummary &Sum = R->Summary;
  bool OnParams = true;
  uint64_t CommParams = 0;
  for (const CFGBlock *B : R.facts().reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (auto Site = collectiveAt(Call)) {
            if (isOnSubCommunicator(Call))
              continue;
            if (!Sum.IssuesCollective) {
              Sum.IssuesCollective = true;
              Sum.FirstCollective = Site->InnerCollective;
            }
            OnParams = OnParams && onParamCommunicators(FD, *Site, CommParams);
          }
  Sum.CollectivesOnParamComms = Sum.IssuesCollective && OnParams && CommParams;
  Sum.CollectiveCommParams = Sum.CollectivesOnParamComms ? CommParams : 0;
  collectives::CalleeTrees Callees;
  Sum.NoReturn = collectives::alwaysFailStops(
                     collectives::functionSequence(*this, FD, Callees)) &&
                 !FD->isMain();
  R->CollectiveState = FunctionResult::Finished;
}

const FunctionSummary &Engine::summary(const FunctionDecl *FD) {
  static const FunctionSummary Empty;
  if (!FD)
    return Empty;
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R)
    return Empty;
  fillCollectiveFacts(FD);
  return R->Summary;
}

FactsRef Engine::cfgOnly(const FunctionDecl *FD,
                         std::unique_ptr<FunctionFacts> &Transient) {
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->HasCfg)
    return {};
  if (R->Body)
    return FactsRef(R->facts(), &R->Pins);
  const FunctionDecl *Def = FD->getDefinition();
  Transient = FunctionFacts::build(Def ? Def : FD, Ctx);
  return FactsRef(Transient.get(), nullptr);
}

std::vector<CollectiveSite> Engine::collectiveSites(const FunctionDecl *FD) {
  std::vector<CollectiveSite> Out;
  P->prepare();
  const FunctionResult *R = P->analyze(FD);
  if (!R || !R->HasCfg)
    return Out;
  // While the body is in memory: FD's callers ask for its summary later,
  // when it may have been dropped and would be rebuilt for it.
  if (R->Body && R->Called)
    fillCollectiveFacts(FD);
  // Only the calls are needed, from the syntax: a dropped body is neither
  // re-analyzed nor its CFG rebuilt for them.
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  for (const CallExpr *Call : Calls)
    if (auto Site = collectiveAt(Call))
      if (!isOnSubCommunicator(Call))
        Out.push_back(*Site);
  std::stable_sort(Out.begin(), Out.end(),
                   [](const CollectiveSite &A, const CollectiveSite &B) {
                     return A.Call->getBeginLoc() < B.Call->getBeginLoc();
                   });
  return Out;
}

/// The communicator variable a condition tests for membership: `c ==
/// MPI_COMM_NULL`, `c != MPI_COMM_NULL`, `!pg`, `pg` (a handle that is null
/// on the ranks outside the group).
static const VarDecl *membershipTested(Engine &E, const Expr *Cond) {
  if (!Cond)
    return nullptr;
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Cond))
    return U->getOpcode() == UO_LNot ? membershipTested(E, U->getSubExpr())
                                     : nullptr;
  // MPICH's handles are integers: there only the macro says "no
  // communicator".
  auto IsNullMacro = [&](const Expr *X) {
    return mayExpandMacro(X, api::nullCommunicatorName(), E.context());
  };
  auto IsNull = [&](const Expr *X) {
    return IsNullMacro(X) ||
           X->isNullPointerConstant(E.context(),
                                    Expr::NPC_ValueDependentIsNotNull);
  };
  // The handle itself (a variable or field of pointer type), not a value
  // read through it (`pg->getRank() == 0`).
  auto Handle = [](const Expr *X, bool AnyType) -> const VarDecl * {
    X = X->IgnoreParenImpCasts();
    if (!isa<DeclRefExpr, MemberExpr>(X) ||
        !(AnyType || X->getType()->isPointerType() ||
          isPointerLike(X->getType())))
      return nullptr;
    return baseVar(X);
  };
  // A smart pointer to the group tested for null: `if (pg)` (its bool
  // conversion), `pg == nullptr`.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Cond);
      MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()) &&
      MC->getType()->isBooleanType())
    return Handle(MC->getImplicitObjectArgument(), false);
  const Expr *L = nullptr, *R = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    if (!B->isEqualityOp())
      return nullptr;
    L = B->getLHS();
    R = B->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Cond)) {
    if ((OC->getOperator() != OO_EqualEqual &&
         OC->getOperator() != OO_ExclaimEqual) ||
        OC->getNumArgs() != 2)
      return nullptr;
    L = OC->getArg(0);
    R = OC->getArg(1);
  } else {
    return Handle(Cond, false);
  }
  if (IsNull(R))
    return Handle(L, IsNullMacro(R));
  if (IsNull(L))
    return Handle(R, IsNullMacro(L));
  return nullptr;
}

/// Does Branch only separate the members of the communicator Collective
/// runs on from the ranks outside it (`if (comm == MPI_COMM_NULL)
/// continue;` after a split)? Those ranks are not expected to call it.
static bool testsMembershipOf(Engine &E, const CFGBlock *Branch,
                              const CallExpr *Collective) {
  const auto *Cond = dyn_cast_or_null<Expr>(
      const_cast<CFGBlock *>(Branch)->getTerminatorCondition(true));
  const VarDecl *Tested = membershipTested(E, Cond);
  if (!Tested)
    return false;
  if (const api::ApiEntry *Entry = E.apiRole(Collective, api::Role::Collective))
    return baseVar(collectives::communicatorOf(Collective, Entry)) == Tested;
  // A helper whose collectives all run on communicators it is given
  // (`sum_(*eval_pg, metric)` under `if (eval_pg)`): the tested one must be
  // each of those.
  const FunctionDecl *Helper = E.resolveCallee(Collective);
  if (!Helper || !Helper->hasBody())
    return false;
  const FunctionSummary &Sum = E.summary(Helper);
  if (!Sum.CollectivesOnParamComms)
    return false;
  llvm::ArrayRef<const Expr *> Args = splitCall(Collective, Helper).second;
  for (unsigned I = 0; I < 64; ++I)
    if (Sum.CollectiveCommParams & (uint64_t(1) << I))
      if (I >= Args.size() || baseVar(Args[I]) != Tested)
        return false;
  return true;
}

namespace {
/// The call whose status Cond tests: `f(..) != 0`, `!f(..)`, `f(..)`, or
/// the same of a local initialized from the call (`int rc = f(..);`).
const CallExpr *testedStatusCall(const Expr *Cond, ASTContext &Ctx) {
  for (int Depth = 0; Cond && Depth < 6; ++Depth) {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(Cond))
      return Call;
    if (const auto *U = dyn_cast<UnaryOperator>(Cond)) {
      Cond = U->getSubExpr();
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Cond);
               BO && BO->isComparisonOp()) {
      // The side that is not a constant.
      Cond = BO->getRHS()->isEvaluatable(Ctx) ? BO->getLHS() : BO->getRHS();
    } else if (const auto *DR = dyn_cast<DeclRefExpr>(Cond)) {
      const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
      Cond = VD && VD->hasLocalStorage() ? VD->getInit() : nullptr;
    } else if (isa<MemberExpr, ArraySubscriptExpr>(Cond)) {
      Cond = assignedJustBefore(Ctx, Cond);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}
} // namespace

bool Engine::statusDecidedByRank(const FunctionDecl *FD,
                                 const ResidentResult &R,
                                 const CFGBlock *Branch) {
  const auto *Cond = dyn_cast_or_null<Expr>(
      const_cast<CFGBlock *>(Branch)->getTerminatorCondition(true));
  const CallExpr *Call = Cond ? testedStatusCall(Cond, Ctx) : nullptr;
  const FunctionDecl *Callee = Call ? resolveCallee(Call) : nullptr;
  // Only the project's own functions decide a status by design; whether a
  // library call fails is never a function of the rank it is given.
  if (!Callee || !Callee->hasBody() || !isUserCode(Callee) ||
      isLibraryDecl(*this, Callee))
    return false;
  const FunctionSummary &Sum = summary(Callee);
  if (Sum.ReturnVaries)
    return Sum.ReturnVaries->Kind == VaryKind::Rank;
  const CFGBlock *At = R.facts().blockOf(Call);
  if (!At)
    return false;
  UniformityAnalysis U(*this, FD, *R);
  VarState S = U.stateBefore(At, Call);
  llvm::ArrayRef<const Expr *> Args = splitCall(Call, Callee).second;
  for (unsigned I : Sum.ParamsToReturn) {
    if (I >= Args.size())
      continue;
    Taint T = U.eval(Args[I], S);
    if (T.Vary && T.Origin.Kind == VaryKind::Rank)
      return true;
    if (!T.Vary && T.Params)
      if (auto Found = paramVaries(FD, T.Params, 0, /*ShapeOnly=*/false);
          Found && Found->first.Kind == VaryKind::Rank)
        return true;
  }
  return false;
}

std::optional<Engine::Divergence>
Engine::divergenceAt(const CallExpr *Collective) {
  const FunctionDecl *FD = enclosingFunction(Collective);
  if (!FD)
    return std::nullopt;
  if (auto D = collectives::dispatchDivergence(*this, Collective))
    return D;
  if (auto D = registrationDivergence(Collective))
    return D;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return std::nullopt;
  if (R->Called)
    fillCollectiveFacts(FD); // While resident (see collectiveSites).
  const CFGBlock *B = R.facts().blockOf(Collective);
  if (!B)
    return std::nullopt;
  std::optional<Divergence> ByParam;
  // Branches whose other arms only end the job (`if (err) exit(1);`) do not
  // make later collectives divergent. (A copy: the cache may grow below.)
  std::vector<const CFGBlock *> Deps = R.body().liveControlDependencies(B);
  // A status check whose outcome the rank decides (a helper that fails on
  // the odd ranks by design) is no broken job but a rank class's path: its
  // early exit counts.
  const size_t LiveDeps = Deps.size();
  for (const CFGBlock *Dep : R.body().errorPathDependencies(B))
    if (statusDecidedByRank(FD, R, Dep))
      Deps.push_back(Dep);
  for (size_t DepIndex = 0; DepIndex < Deps.size(); ++DepIndex) {
    const CFGBlock *Dep = Deps[DepIndex];
    auto It = R.body().BranchTaint.find(Dep);
    if (It == R.body().BranchTaint.end() || !It->second.depends())
      continue;
    // A branch on parameters diverges only where some caller passes a
    // varying argument (the first such branch is the one reported): ask
    // that first, it is cheaper than comparing the arms.
    std::optional<std::pair<VaryOrigin, const CallExpr *>> Passed;
    if (!It->second.Vary) {
      if (ByParam)
        continue;
      // Parameters it reads only through their shapes (`x.size(0)`) count
      // where a caller passes one whose shape differs.
      const Taint &Cond = It->second;
      if (uint64_t ByValue = Cond.Params & ~Cond.SizeParams)
        Passed = paramVaries(FD, ByValue, 0, /*ShapeOnly=*/Cond.ContentOnly);
      if (!Passed && (Cond.Params & Cond.SizeParams))
        Passed = paramVaries(FD, Cond.Params & Cond.SizeParams, 0,
                             /*ShapeOnly=*/true);
      if (!Passed)
        continue;
    }
    if (testsMembershipOf(*this, Dep, Collective) ||
        collectives::iteratesRegistrations(*this, Collective,
                                           Dep->getTerminatorStmt()))
      continue;
    // A counted loop that runs as often on every rank (uniform bounds, or a
    // rank's own range of a uniform length): its counter is no choice.
    if (const auto *F = dyn_cast_or_null<ForStmt>(Dep->getTerminatorStmt());
        F && collectives::uniformTripCount(
                 *this, F, Passed ? paramsKnownPerCaller(FD) : 0))
      continue;
    // Only where the arms first differ, on the side that issues a
    // collective there: a count is not an order (Divergence.h).
    auto Order =
        collectives::orderDifference(*this, FD, Dep,
                                     /*WholeJoin=*/DepIndex >= LiveDeps);
    if (!Order || Order->Here.Site != Collective)
      continue;
    Divergence D;
    D.Branch = Dep->getTerminatorStmt();
    // Ranks that skip it here may issue it elsewhere in the function: what
    // each rank class issues from entry to exit decides.
    if (collectives::ruledOutByRankClasses(*this, FD, D.Branch, Collective))
      continue;
    // A helper that is one half of the idiom (`enter(rank)` ... `leave(rank)`)
    // is balanced where it is called.
    if (collectives::decidedByRankClasses(*this, FD, D.Branch) &&
        balancedAtEveryCall(FD, D.Branch))
      continue;
    D.Condition = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
    // A branch deciding whether its own block runs again is a loop's exit.
    D.IsLoop = isLoopStmt(D.Branch) || Dep == B;
    if (const auto *W = collectives::rankClassWitness(*this, FD, Collective))
      D.Ranks = Divergence::RankPair{W->Here.Rank, W->Other.Rank, W->Here.World,
                                     W->OtherSite};
    if (It->second.Vary) {
      D.Origin = It->second.Origin;
      return D;
    }
    D.Origin = Passed->first;
    D.PassedAt = Passed->second;
    ByParam = D;
  }
  if (ByParam)
    return ByParam;
  return thrownPast(Collective);
}

namespace {
/// Does a handler of Try leave the statements after the try: a `return`, or
/// a `continue` / `break` of a loop around the try (not one inside the
/// handler)?
bool handlerLeaves(const CXXTryStmt *Try) {
  std::function<bool(const Stmt *, bool)> Leaves = [&](const Stmt *S,
                                                       bool InLoop) {
    if (!S)
      return false;
    if (isa<ReturnStmt>(S))
      return true;
    if (isa<ContinueStmt>(S) && !InLoop)
      return true;
    if (isa<BreakStmt>(S) && !InLoop)
      return true;
    bool Inner =
        InLoop ||
        isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
    for (const Stmt *Child : S->children())
      if (Leaves(Child, Inner))
        return true;
    return false;
  };
  for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
    if (Leaves(Try->getHandler(I)->getHandlerBlock(), false))
      return true;
  return false;
}

/// The try statements of a block whose handlers leave it, by position, found
/// once per block: every collective of a long block asks about the
/// statements before it.
struct LeavingTries : EngineExtension {
  explicit LeavingTries(Engine &) {}
  struct InBlock {
    llvm::SmallVector<std::pair<unsigned, const CXXTryStmt *>, 2> Tries;
    llvm::DenseMap<const Stmt *, unsigned> Position; ///< Only with Tries.
  };
  llvm::DenseMap<const CompoundStmt *, InBlock> ByBlock;
  const InBlock &of(const CompoundStmt *Block) {
    auto [It, New] = ByBlock.try_emplace(Block);
    InBlock &Out = It->second;
    if (!New)
      return Out;
    unsigned At = 0;
    for (const Stmt *Child : Block->body()) {
      if (const auto *Try = dyn_cast<CXXTryStmt>(Child);
          Try && handlerLeaves(Try))
        Out.Tries.push_back({At, Try});
      ++At;
    }
    if (!Out.Tries.empty()) {
      At = 0;
      for (const Stmt *Child : Block->body())
        Out.Position.try_emplace(Child, At++);
    }
    return Out;
  }
};
} // namespace

/// A call that throws on some ranks only, where the catch handler then
/// skips this collective on those ranks: earlier in the same try block, or
/// in an earlier try statement of an enclosing block whose handler leaves
/// it (`catch (...) { continue; }` in a step loop).
std::optional<Engine::Divergence>
Engine::thrownPast(const CallExpr *Collective) {
  std::vector<const CallExpr *> Calls;
  std::function<void(const Stmt *, bool)> Collect = [&](const Stmt *S,
                                                        bool All) {
    if (!S)
      return;
    // Where the code stands in the file, macro arguments at their use.
    const SourceManager &SM = Ctx.getSourceManager();
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (All || SM.isBeforeInTranslationUnit(
                     SM.getFileLoc(C->getBeginLoc()),
                     SM.getFileLoc(Collective->getBeginLoc())))
        Calls.push_back(C);
    for (const Stmt *Child : S->children())
      Collect(Child, All);
  };
  // Also out of an initializer (`int s_ = (MPI_Allreduce(...));` in a
  // status-checking macro): to the statement that declares the variable.
  auto Enclosing = [&](const Stmt *S) -> const Stmt * {
    if (const Stmt *P = parentStmt(S))
      return P;
    auto Parents = Ctx.getParents(*S);
    const auto *VD = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
    if (!VD)
      return nullptr;
    auto Above = Ctx.getParents(*VD);
    return Above.empty() ? nullptr : Above[0].get<DeclStmt>();
  };
  const Stmt *Prev = Collective;
  for (const Stmt *Cur = Enclosing(Collective); Cur;
       Prev = Cur, Cur = Enclosing(Cur)) {
    if (const auto *Try = dyn_cast<CXXTryStmt>(Cur)) {
      if (Prev == Try->getTryBlock())
        Collect(Try->getTryBlock(), false);
    } else if (const auto *Block = dyn_cast<CompoundStmt>(Cur)) {
      const LeavingTries::InBlock &Known =
          engineExtension<LeavingTries>(*this).of(Block);
      if (!Known.Tries.empty()) {
        unsigned PrevAt = Known.Position.lookup(Prev);
        for (auto [At, Try] : Known.Tries)
          if (At < PrevAt)
            Collect(Try->getTryBlock(), true);
      }
    }
    if (isa<LambdaExpr>(Cur))
      break;
  }
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Callee = resolveCallee(Call);
    if (!Callee || !Callee->hasBody() || !isTaughtDecl(*this, Callee))
      continue;
    FunctionResult *CR = P->analyze(Callee->getDefinition());
    if (!CR || !CR->ThrowTaint.depends())
      continue;
    Divergence D;
    D.Branch = Call;
    if (CR->ThrowTaint.Vary) {
      D.Origin = CR->ThrowTaint.Origin;
      return D;
    }
    for (unsigned I = 0; I < Call->getNumArgs() && I < 64; ++I)
      if (CR->ThrowTaint.Params & (uint64_t(1) << I)) {
        UniformityAnswer A = uniformity(Call->getArg(I));
        if (!A.Uniform && A.Origin) {
          D.Origin = *A.Origin;
          D.PassedAt = Call;
          return D;
        }
      }
  }
  return std::nullopt;
}

} // namespace distlint
