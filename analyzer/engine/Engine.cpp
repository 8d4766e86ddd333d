//===- Engine.cpp - The questions rules ask ---------------------------------===//
//
// Pipeline (lazy, on the first question):
//  1. collect user functions and callable bindings (lambdas held in
//     std::function / function pointers, dynamic types of objects);
//  2. rounds until TU-wide facts (rank-varying fields and globals,
//     sub-communicators) stop growing: analyze every user function with a
//     forward data-flow over its CFG (uniformity/), summaries of callees
//     computed on demand (bottom-up, recursion cut) (AnalysisManager);
//  3. questions replay a block's transfer up to the asked expression.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"
#include "EngineInternals.h"
#include "UserCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

using namespace clang;

namespace distlint {

//===----------------------------------------------------------------------===//
// Engine
//===----------------------------------------------------------------------===//

Engine::Engine(ASTContext &Ctx, const api::ApiIndex &Api)
    : Ctx(Ctx), Api(Api), P(std::make_unique<AnalysisManager>(*this)) {}
Engine::~Engine() = default;

bool Engine::isUserCode(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  return Loc.isValid() && !SM.isInSystemHeader(Loc);
}

bool Engine::isUserCode(const Decl *D) const {
  // Declarations in the APIs' own namespaces (c10d, torch, at, std...) are
  // library code even when their headers are not system headers (a vendored
  // copy, the project's test declarations).
  return D && isUserCode(D->getLocation()) &&
         !isLibraryDecl(const_cast<Engine &>(*this), D);
}

const std::vector<const FunctionDecl *> &Engine::userFunctions() {
  P->prepare();
  return P->UserFunctions;
}

const FunctionDecl *Engine::resolveCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const Expr *CalleeExpr = strip(Call->getCallee());
  // Calls through std::function objects or function pointers.
  const ValueDecl *Holder = nullptr;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
      OC && OC->getOperator() == OO_Call && OC->getNumArgs() >= 1) {
    const Expr *Obj = strip(OC->getArg(0));
    if (const auto *DR = dyn_cast<DeclRefExpr>(Obj))
      Holder = DR->getDecl();
    else if (const auto *M = dyn_cast<MemberExpr>(Obj))
      Holder = M->getMemberDecl();
  } else if (!FD) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(CalleeExpr))
      Holder = DR->getDecl();
    else if (const auto *M = dyn_cast<MemberExpr>(CalleeExpr))
      Holder = M->getMemberDecl();
    else if (const auto *U = dyn_cast<UnaryOperator>(CalleeExpr))
      if (const auto *DR = dyn_cast<DeclRefExpr>(strip(U->getSubExpr())))
        Holder = DR->getDecl();
  }
  if (Holder) {
    auto It = P->Bindings.find(Holder);
    if (It != P->Bindings.end())
      return It->second;
  }
  // Virtual calls: use the dynamic class when the object's is known.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (MD && MD->isVirtual()) {
      if (const VarDecl *Obj = baseVar(MC->getImplicitObjectArgument())) {
        auto It = P->DynTypes.find(Obj);
        if (It != P->DynTypes.end())
          if (const CXXMethodDecl *Over =
                  MD->getCorrespondingMethodInClass(It->second))
            return Over;
      }
    }
  }
  return FD;
}

const api::ApiEntry *Engine::apiRole(const CallExpr *Call, api::Role R) {
  return Api.find(resolveCallee(Call), R);
}

const FunctionDecl *Engine::enclosingFunction(const Stmt *S) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return nullptr;
    Node = Parents[0];
    if (const auto *FD = Node.get<FunctionDecl>())
      return FD;
    if (const auto *L = Node.get<LambdaExpr>())
      return L->getCallOperator();
  }
  return nullptr;
}

FunctionFacts *Engine::facts(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  P->prepare();
  if (FunctionResult *R = P->analyze(FD); R && R->Facts)
    return R->Facts.get();
  auto &Slot = P->FactsCache[FD];
  if (!Slot)
    Slot = FunctionFacts::build(FD, Ctx);
  return Slot.get();
}

const Stmt *Engine::parentStmt(const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  if (Parents.empty())
    return nullptr;
  return Parents[0].get<Stmt>();
}

std::vector<const Stmt *> Engine::controllingBranches(const Stmt *S) {
  std::vector<const Stmt *> Out;
  const FunctionDecl *FD = enclosingFunction(S);
  FunctionFacts *F = facts(FD);
  if (!F)
    return Out;
  for (const CFGBlock *B : F->allControlDependencies(F->blockOf(S)))
    if (const Stmt *T = B->getTerminatorStmt())
      Out.push_back(T);
  return Out;
}

/// The abstract value of X where it stands in its function.
static std::optional<Taint> taintAt(Engine &E, AnalysisManager &P, const Expr *X) {
  const FunctionDecl *FD = E.enclosingFunction(X);
  if (!FD)
    return std::nullopt;
  P.prepare();
  FunctionResult *R = P.analyze(FD);
  if (!R || !R->Facts)
    return std::nullopt;
  const CFGBlock *B = R->Facts->blockOf(X);
  if (!B)
    return std::nullopt;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, X);
  return U.eval(X, S);
}

UniformityAnswer Engine::uniformity(const Expr *X) {
  UniformityAnswer A;
  std::optional<Taint> T = taintAt(*this, *P, X);
  if (T && T->Vary) {
    A.Uniform = false;
    A.Origin = T->Origin;
  }
  return A;
}

std::optional<VaryOrigin> Engine::shapeVaries(const Expr *X) {
  std::optional<Taint> T = taintAt(*this, *P, X);
  if (T && T->Vary && !T->ContentOnly)
    return T->Origin;
  return std::nullopt;
}

UniformityAnswer Engine::branchUniformity(const Stmt *Terminator) {
  UniformityAnswer A;
  const FunctionDecl *FD = enclosingFunction(Terminator);
  if (!FD)
    return A;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return A;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    if (B->getTerminatorStmt() == Terminator) {
      auto It = R->BranchTaint.find(B);
      if (It != R->BranchTaint.end() && It->second.Vary) {
        A.Uniform = false;
        A.Origin = It->second.Origin;
      }
      break;
    }
  return A;
}

} // namespace distlint

//===----------------------------------------------------------------------===//
// Collectives, sequences and divergence
//===----------------------------------------------------------------------===//

namespace distlint {


/// The communicator a direct API collective runs on.
static const Expr *commExpr(const CallExpr *Call, const api::ApiEntry *Entry) {
  llvm::ArrayRef<const Expr *> Args(Call->getArgs(), Call->getNumArgs());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (Entry->Args.Comm >= 0 && Entry->Args.Comm < (int)Args.size())
    return Args[Entry->Args.Comm];
  return nullptr;
}

class SequenceBuilder {
public:
  SequenceBuilder(Engine &E, FunctionFacts &F) : E(E), F(F) {}
  /// Collective tokens from B until Stop; nullopt when every path ends the
  /// job (fail-stop).
  std::optional<std::string> walk(const CFGBlock *B, const CFGBlock *Stop);
  llvm::SmallPtrSet<const CFGBlock *, 32> OnPath;

private:
  Engine &E;
  FunctionFacts &F;
  int Budget = 4000;
  bool failStop(const CallExpr *Call);
};

bool SequenceBuilder::failStop(const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD)
    return false;
  if (FD->isNoReturn() || E.api().has(FD, api::Role::FailStop))
    return true;
  if (FD->hasBody() && E.isUserCode(FD))
    return E.summary(FD).NoReturn;
  return false;
}

std::optional<std::string> SequenceBuilder::walk(const CFGBlock *B,
                                                 const CFGBlock *Stop) {
  std::string Out;
  llvm::SmallVector<const CFGBlock *, 16> Added;
  auto Cleanup = [&] {
    for (const CFGBlock *A : Added)
      OnPath.erase(A);
  };
  const CFGBlock *Exit = &F.cfg().getExit();
  while (B && B != Stop) {
    if (--Budget < 0 || OnPath.count(B))
      break;
    OnPath.insert(B);
    Added.push_back(B);
    if (B->hasNoReturnElement()) {
      Cleanup();
      return std::nullopt;
    }
    for (const CFGElement &El : *B) {
      auto CS = El.getAs<CFGStmt>();
      if (!CS)
        continue;
      const auto *Call = dyn_cast<CallExpr>(CS->getStmt());
      if (!Call)
        continue;
      if (failStop(Call)) {
        Cleanup();
        return std::nullopt;
      }
      Out += E.collectiveToken(Call);
    }
    if (B == Exit)
      break;
    // A throw that leaves the function ends the job (or is someone
    // else's divergence); inside a try it is an ordinary branch.
    if (throwLeavesFunction(B, Exit)) {
      Cleanup();
      return std::nullopt;
    }
    llvm::SmallVector<const CFGBlock *, 4> Succs;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !llvm::is_contained(Succs, Succ))
        Succs.push_back(Succ);
    if (Succs.empty())
      break;
    if (Succs.size() == 1) {
      B = Succs.front();
      continue;
    }
    const CFGBlock *Join = F.immediatePostDominator(B);
    std::vector<std::string> Alts;
    for (const CFGBlock *Succ : Succs)
      if (auto A = walk(Succ, Join))
        if (!llvm::is_contained(Alts, *A))
          Alts.push_back(*A);
    if (Alts.empty()) {
      Cleanup();
      return std::nullopt;
    }
    if (Alts.size() == 1) {
      Out += Alts.front();
    } else {
      Out += "{";
      for (size_t I = 0; I < Alts.size(); ++I)
        Out += (I ? "|" : "") + Alts[I];
      Out += "}";
    }
    B = Join;
  }
  Cleanup();
  return Out;
}

std::string Engine::collectiveToken(const CallExpr *Call) {
  auto Site = collectiveAt(Call);
  if (!Site)
    return "";
  if (Site->Entry) {
    if (isOnSubCommunicator(Call))
      return "";
    std::string Token = shortName(Site->Entry->Name);
    Token += "@" + sourceText(commExpr(Call, Site->Entry), Ctx);
    int Root = Site->Entry->Args.Root;
    if (Root >= 0 && Root < (int)Call->getNumArgs() &&
        !isa<CXXOperatorCallExpr>(Call))
      Token += "/root=" + sourceText(Call->getArg(Root), Ctx);
    return Token + ";";
  }
  if (Site->Callee)
    return summary(Site->Callee).Sequence; // Inlined: wrappers compare equal.
  return "";
}

bool Engine::isOnSubCommunicator(const CallExpr *Call) {
  const api::ApiEntry *Entry = apiRole(Call, api::Role::Collective);
  if (!Entry)
    return false;
  P->prepare();
  const Expr *Comm = commExpr(Call, Entry);
  if (!Comm)
    return false;
  if (const VarDecl *VD = baseVar(Comm))
    if (P->SubComms.count(VD))
      return true;
  if (const auto *Inner = dyn_cast<CallExpr>(strip(Comm)))
    return apiRole(Inner, api::Role::CommSplit) != nullptr;
  return false;
}

std::optional<CollectiveSite> Engine::collectiveAt(const CallExpr *Call) {
  const FunctionDecl *FD = resolveCallee(Call);
  if (!FD)
    return std::nullopt;
  if (const api::ApiEntry *E = Api.find(FD, api::Role::Collective))
    if (!Api.has(FD, api::Role::PointToPoint))
      return CollectiveSite{Call, E, nullptr, Call};
  if (FD->hasBody() && isUserCode(FD)) {
    const FunctionDecl *Def = FD->getDefinition();
    const FunctionSummary &S = summary(Def ? Def : FD);
    if (S.IssuesCollective)
      return CollectiveSite{Call, nullptr, Def ? Def : FD, S.FirstCollective};
  }
  return std::nullopt;
}

std::string Engine::sequenceOf(const FunctionDecl *FD) {
  return summary(FD).Sequence;
}

void Engine::fillCollectiveFacts(const FunctionDecl *FD) {
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts || R->CollectiveState != FunctionResult::NotStarted)
    return;
  R->CollectiveState = FunctionResult::InProgress;
  FunctionSummary &Sum = R->Summary;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (auto Site = collectiveAt(Call)) {
            if (Site->Entry && isOnSubCommunicator(Call))
              continue;
            if (!Sum.IssuesCollective) {
              Sum.IssuesCollective = true;
              Sum.FirstCollective = Site->InnerCollective;
            }
          }
  SequenceBuilder SB(*this, *R->Facts);
  auto Seq = SB.walk(&R->Facts->cfg().getEntry(), nullptr);
  Sum.NoReturn = !Seq.has_value() && !FD->isMain();
  Sum.Sequence = Seq ? *Seq : "";
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

std::vector<CollectiveSite> Engine::collectiveSites(const FunctionDecl *FD) {
  std::vector<CollectiveSite> Out;
  FunctionResult *R = (P->prepare(), P->analyze(FD));
  if (!R || !R->Facts)
    return Out;
  llvm::SmallPtrSet<const CallExpr *, 16> Seen;
  for (const CFGBlock *B : R->Facts->reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (Seen.insert(Call).second)
            if (auto Site = collectiveAt(Call))
              if (!(Site->Entry && isOnSubCommunicator(Call)))
                Out.push_back(*Site);
  std::sort(Out.begin(), Out.end(),
            [](const CollectiveSite &A, const CollectiveSite &B) {
              return A.Call->getBeginLoc() < B.Call->getBeginLoc();
            });
  return Out;
}

static size_t countOccurrences(llvm::StringRef Haystack,
                               llvm::StringRef Needle) {
  size_t N = 0;
  for (size_t Pos = Haystack.find(Needle); Pos != llvm::StringRef::npos;
       Pos = Haystack.find(Needle, Pos + Needle.size()))
    ++N;
  return N;
}

bool Engine::armsDiffer(const FunctionDecl *FD, const CFGBlock *Branch,
                        const CallExpr *Collective) {
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return false;
  auto It = R->Arms.find(Branch);
  if (It == R->Arms.end())
    It = R->Arms.try_emplace(Branch, computeArms(FD, Branch)).first;
  const std::vector<std::string> &Alts = It->second;
  if (Alts.size() < 2)
    return false;
  // The arms differ; this collective is part of the difference only if the
  // arms issue it a different number of times (matched broadcasts in both
  // arms are fine even when one arm adds a barrier).
  std::string Token = collectiveToken(Collective);
  if (Token.empty())
    return true;
  size_t First = countOccurrences(Alts.front(), Token);
  for (const std::string &A : Alts)
    if (countOccurrences(A, Token) != First)
      return true;
  return false;
}

std::vector<std::string> Engine::computeArms(const FunctionDecl *FD,
                                             const CFGBlock *Branch) {
  FunctionResult *R = P->analyze(FD);
  SequenceBuilder SB(*this, *R->Facts);
  SB.OnPath.insert(Branch);
  const CFGBlock *Join = R->Facts->immediatePostDominator(Branch);
  std::vector<std::string> Alts;
  for (const CFGBlock *Succ : Branch->succs())
    if (Succ)
      if (auto A = SB.walk(Succ, Join))
        if (!llvm::is_contained(Alts, *A))
          Alts.push_back(*A);
  return Alts;
}

/// Call sites of FD in user code (for parameter-carried divergence).
std::vector<const CallExpr *> Engine::callersOf(const FunctionDecl *FD) {
  P->prepare();
  if (!CallSitesBuilt) {
    CallSitesBuilt = true;
    for (const FunctionDecl *F : P->UserFunctions) {
      FunctionResult *R = P->analyze(F);
      if (!R || !R->Facts)
        continue;
      for (const CFGBlock *B : R->Facts->reversePostOrder())
        for (const CFGElement &El : *B)
          if (auto CS = El.getAs<CFGStmt>())
            if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
              if (const FunctionDecl *Callee = resolveCallee(Call)) {
                const FunctionDecl *Def = Callee->getDefinition();
                CallSites[Def ? Def : Callee].push_back(Call);
              }
    }
  }
  auto It = CallSites.find(FD);
  return It == CallSites.end() ? std::vector<const CallExpr *>{} : It->second;
}

/// Does parameter set Mask of FD receive a rank-varying argument at some
/// call site? Follows parameters through up to Depth callers.
std::optional<std::pair<VaryOrigin, const CallExpr *>>
Engine::paramVaries(const FunctionDecl *FD, uint64_t Mask, int Depth,
                    bool ShapeOnly) {
  if (Depth > 3)
    return std::nullopt;
  for (const CallExpr *Call : callersOf(FD)) {
    const FunctionDecl *Caller = enclosingFunction(Call);
    FunctionResult *R = Caller ? P->analyze(Caller) : nullptr;
    if (!R || !R->Facts)
      continue;
    const CFGBlock *B = R->Facts->blockOf(Call);
    if (!B)
      continue;
    UniformityAnalysis U(*this, Caller, *R);
    VarState S = U.stateBefore(B, Call);
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) &&
                             Call->getNumArgs() > 0
                         ? 1
                         : 0;
    uint64_t CallerMask = 0;
    for (unsigned I = 0; I + Shift < Call->getNumArgs() && I < 64; ++I) {
      if (!(Mask & (uint64_t(1) << I)))
        continue;
      // Only the argument's value counts: whether the call itself is
      // reached by every rank is the caller's own divergence, reported there.
      Taint T = U.eval(Call->getArg(I + Shift), S);
      if (T.Vary && !(ShapeOnly && T.ContentOnly))
        return std::make_pair(T.Origin, Call);
      CallerMask |= T.Params;
    }
    if (CallerMask)
      if (auto Found = paramVaries(Caller, CallerMask, Depth + 1, ShapeOnly))
        return std::make_pair(Found->first, Call);
  }
  return std::nullopt;
}

std::optional<Engine::Divergence>
Engine::divergenceAt(const CallExpr *Collective) {
  const FunctionDecl *FD = enclosingFunction(Collective);
  if (!FD)
    return std::nullopt;
  P->prepare();
  FunctionResult *R = P->analyze(FD);
  if (!R || !R->Facts)
    return std::nullopt;
  const CFGBlock *B = R->Facts->blockOf(Collective);
  if (!B)
    return std::nullopt;
  std::optional<Divergence> ByParam;
  // Branches whose other arms only end the job (`if (err) exit(1);`) do not
  // make later collectives divergent. (A copy: the cache may grow below.)
  const std::vector<const CFGBlock *> Deps = R->liveControlDependencies(B);
  for (const CFGBlock *Dep : Deps) {
    auto It = R->BranchTaint.find(Dep);
    if (It == R->BranchTaint.end() || !It->second.depends())
      continue;
    if (!armsDiffer(FD, Dep, Collective))
      continue;
    Divergence D;
    D.Branch = Dep->getTerminatorStmt();
    D.Condition = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
    D.IsLoop = isLoopStmt(D.Branch);
    if (It->second.Vary) {
      D.Origin = It->second.Origin;
      return D;
    }
    if (!ByParam)
      if (auto Found = paramVaries(FD, It->second.Params, 0,
                                   /*ShapeOnly=*/It->second.ContentOnly)) {
        D.Origin = Found->first;
        D.PassedAt = Found->second;
        ByParam = D;
      }
  }
  if (ByParam)
    return ByParam;
  return thrownPast(Collective);
}

/// A call earlier in the same try block may throw on some ranks only: the
/// catch handler then skips this collective on those ranks.
std::optional<Engine::Divergence>
Engine::thrownPast(const CallExpr *Collective) {
  const CXXTryStmt *Try = nullptr;
  for (const Stmt *Cur = parentStmt(Collective); Cur; Cur = parentStmt(Cur))
    if ((Try = dyn_cast<CXXTryStmt>(Cur)))
      break;
  if (!Try)
    return std::nullopt;
  std::vector<const CallExpr *> Calls;
  std::function<void(const Stmt *)> Collect = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (C->getBeginLoc() < Collective->getBeginLoc())
        Calls.push_back(C);
    for (const Stmt *Child : S->children())
      Collect(Child);
  };
  Collect(Try->getTryBlock());
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Callee = resolveCallee(Call);
    if (!Callee || !Callee->hasBody() || !isUserCode(Callee))
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

std::vector<Engine::ArgumentMismatch>
Engine::mismatchedArguments(const CallExpr *Collective) {
  std::vector<ArgumentMismatch> Out;
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  if (!Entry || isa<CXXOperatorCallExpr>(Collective))
    return Out;
  std::pair<const char *, int> Roles[] = {{"count", Entry->Args.Count},
                                          {"root", Entry->Args.Root},
                                          {"reduction op", Entry->Args.Op},
                                          {"datatype", Entry->Args.DType},
                                          {"options", Entry->Args.Options}};
  for (auto [Name, Idx] : Roles) {
    if (Idx < 0 || Idx >= (int)Collective->getNumArgs())
      continue;
    const Expr *Arg = Collective->getArg(Idx);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    UniformityAnswer A = uniformity(Arg);
    if (!A.Uniform && A.Origin)
      Out.push_back({Name, Arg, *A.Origin});
  }
  // Tensors (c10d): the shapes each rank contributes must agree.
  int Send = Entry->Args.Send;
  if (Send >= 0 && Send < (int)Collective->getNumArgs() &&
      isTensorLike(Collective->getArg(Send)->getType()))
    if (auto Origin = shapeVaries(Collective->getArg(Send)))
      Out.push_back({"tensor shape", Collective->getArg(Send), *Origin});
  return Out;
}

} // namespace distlint
