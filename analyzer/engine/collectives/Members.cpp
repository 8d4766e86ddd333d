//===- Members.cpp - Collectives among a sub-communicator's members -------===//
//
// A collective on a communicator built by splitting waits for that
// communicator's members only, so the world's rank classes say nothing of
// it. What still tells its members apart is their rank in it: a branch on
// that rank around the collective leaves some members waiting for others
// that never come.
//
//===----------------------------------------------------------------------===//
#include "engine/Engine.h"
#include "engine/EngineInternals.h"
#include "engine/collectives/SequenceBuilder.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distlint {

std::vector<const CallExpr *>
Engine::subCommunicatorCollectives(const FunctionDecl *FD) {
  std::vector<const CallExpr *> Out;
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  for (const CallExpr *Call : Calls)
    if (apiRole(Call, api::Role::Collective) && isOnSubCommunicator(Call))
      Out.push_back(Call);
  return Out;
}

std::optional<Engine::Divergence>
Engine::memberDivergenceAt(const CallExpr *Collective) {
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  const FunctionDecl *FD = enclosingFunction(Collective);
  if (!Entry || !FD)
    return std::nullopt;
  const Decl *Comm =
      communicatorDecl(collectives::communicatorOf(Collective, Entry));
  if (!Comm)
    return std::nullopt;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return std::nullopt;
  const CFGBlock *B = R.facts().blockOf(Collective);
  if (!B)
    return std::nullopt;
  // The other calls that may issue a collective on it: a branch one of them
  // shares may give each arm its own (`if (r == 0) reduce_root(); else
  // reduce_leaf();`), which is not compared here.
  llvm::SmallVector<const CFGBlock *, 8> Others;
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  for (const CallExpr *Call : Calls) {
    if (Call == Collective)
      continue;
    bool Shares = false;
    if (const api::ApiEntry *E = apiRole(Call, api::Role::Collective))
      Shares = communicatorDecl(collectives::communicatorOf(Call, E)) == Comm;
    else if (auto Site = collectiveAt(Call))
      Shares = true; // A helper: which communicators it uses is not asked.
    if (const CFGBlock *CB = Shares ? R.facts().blockOf(Call) : nullptr)
      Others.push_back(CB);
  }
  // A copy: the cache may grow while the others' dependencies are asked.
  const std::vector<const CFGBlock *> Deps =
      R.body().liveControlDependencies(B);
  for (const CFGBlock *Dep : Deps) {
    auto It = R.body().BranchTaint.find(Dep);
    if (It == R.body().BranchTaint.end() || !It->second.Vary)
      continue;
    const VaryOrigin &O = It->second.Origin;
    if (O.Kind != VaryKind::Rank || O.Comm != Comm)
      continue;
    if (llvm::any_of(Others, [&](const CFGBlock *Other) {
          return llvm::is_contained(R.body().liveControlDependencies(Other),
                                    Dep);
        }))
      continue;
    Divergence D;
    D.Branch = Dep->getTerminatorStmt();
    D.Condition = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
    D.IsLoop = isLoopStmt(D.Branch) || Dep == B;
    D.Origin = O;
    D.AmongMembers = true;
    return D;
  }
  return std::nullopt;
}

namespace {

/// Does X name Macro, or is X a local variable that some write in FD sets
/// to an expression naming it (`int color = leader ? 0 : MPI_UNDEFINED;`)?
bool mayHoldMacro(const Expr *X, const FunctionDecl *FD, StringRef Macro,
                  ASTContext &Ctx) {
  if (!X)
    return false;
  if (mayExpandMacro(X, Macro, Ctx))
    return true;
  const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
  const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || !FD || !FD->getBody())
    return false;
  if (VD->getInit() && mayExpandMacro(VD->getInit(), Macro, Ctx))
    return true;
  struct Writes : RecursiveASTVisitor<Writes> {
    const VarDecl *VD;
    StringRef Macro;
    ASTContext &Ctx;
    bool Found = false;
    Writes(const VarDecl *VD, StringRef Macro, ASTContext &Ctx)
        : VD(VD), Macro(Macro), Ctx(Ctx) {}
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Assign && baseVar(B->getLHS()) == VD &&
          mayExpandMacro(B->getRHS(), Macro, Ctx))
        Found = true;
      return !Found;
    }
  } W(VD, Macro, Ctx);
  W.TraverseStmt(const_cast<Stmt *>(FD->getBody()));
  return W.Found;
}

/// Does Cond read the declaration D (a communicator tested for membership,
/// `if (leaders != MPI_COMM_NULL)`), also through the body of a function it
/// calls (`if (grid.is_leader())`, an accessor that tests the member)?
bool mentions(const Stmt *Cond, const Decl *D, int Depth = 2) {
  if (!Cond || !D)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(Cond); DR && DR->getDecl() == D)
    return true;
  if (const auto *M = dyn_cast<MemberExpr>(Cond); M && M->getMemberDecl() == D)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(Cond); Call && Depth > 0)
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (const FunctionDecl *Def = Callee->getDefinition();
          Def && mentions(Def->getBody(), D, Depth - 1))
        return true;
  for (const Stmt *Child : Cond->children())
    if (mentions(Child, D, Depth))
      return true;
  return false;
}

} // namespace

bool Engine::runsOnEveryRank(const Stmt *S, const Decl *Comm, int Depth) {
  const FunctionDecl *FD = enclosingFunction(S);
  if (!FD || neverRuns(S))
    return false;
  {
    ResidentResult R = P->resident(FD);
    if (!R)
      return false;
    const CFGBlock *B = R.facts().blockOf(S);
    if (!B)
      return false;
    const std::vector<const CFGBlock *> Deps =
        R.body().liveControlDependencies(B);
    for (const CFGBlock *Dep : Deps) {
      auto It = R.body().BranchTaint.find(Dep);
      if (It != R.body().BranchTaint.end() &&
          (It->second.Vary || It->second.PendingVary))
        return false;
      const Stmt *Cond =
          const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true);
      if (!Cond || mentions(Cond, Comm))
        return false;
    }
  }
  if (FD->isMain())
    return true;
  if (Depth <= 0)
    return false;
  std::vector<const CallExpr *> Calls = callersOf(FD);
  if (Calls.empty())
    return false;
  for (const CallExpr *Call : Calls)
    if (!runsOnEveryRank(Call, Comm, Depth - 1))
      return false;
  return true;
}

std::optional<Engine::NullCommunicatorUse>
Engine::nullCommunicatorAt(const CallExpr *Collective) {
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  if (!Entry)
    return std::nullopt;
  const Decl *Comm =
      communicatorDecl(collectives::communicatorOf(Collective, Entry));
  if (!Comm)
    return std::nullopt;
  const CallExpr *Split = splitWriting(Comm);
  const api::ApiEntry *Row =
      Split ? apiRole(Split, api::Role::CommSplit) : nullptr;
  if (!Row || Row->Args.Color < 0 ||
      unsigned(Row->Args.Color) >= Split->getNumArgs())
    return std::nullopt;
  const Expr *Color = Split->getArg(Row->Args.Color);
  const FunctionDecl *SplitFD = enclosingFunction(Split);
  if (!mayHoldMacro(Color, SplitFD, api::undefinedColorName(), Ctx))
    return std::nullopt;
  if (!runsOnEveryRank(Collective, Comm, P->Limits.CallerDepth))
    return std::nullopt;
  return NullCommunicatorUse{Split, Color};
}

} // namespace distlint
