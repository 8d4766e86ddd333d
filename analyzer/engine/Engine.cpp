//===- Engine.cpp - The questions rules ask ---------------------------------===//
//
// Pipeline (lazy, on the first question):
//  1. collect user functions and callable bindings (lambdas held in
//     std::function / function pointers, dynamic types of objects);
//  2. rounds until TU-wide facts (rank-varying fields and globals,
//     sub-communicators) stop growing: analyze every user function with a
//     forward data-flow over its CFG (uniformity/), summaries of callees
//     computed on demand (bottom-up, recursion cut) (AnalysisManager);
//  3. questions replay a block's transfer up to the asked expression;
//     the collective and divergence questions live in collectives/.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"
#include "EngineInternals.h"
#include "UserCode.h"
#include "Values.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distlint {

//===----------------------------------------------------------------------===//
// Engine
//===----------------------------------------------------------------------===//

Engine::Engine(ASTContext &Ctx, const api::ApiIndex &Api)
    : Ctx(Ctx), Api(Api), P(std::make_unique<AnalysisManager>(*this)) {}
Engine::~Engine() = default;

Budget &Engine::limits() { return P->Limits; }

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

/// The variable or field a call through a std::function object or function
/// pointer calls (null for other calls).
static const ValueDecl *callableHolder(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  const Expr *CalleeExpr = strip(Call->getCallee());
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
  return Holder;
}

const FunctionDecl *Engine::resolveCallee(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  // Calls through std::function objects or function pointers.
  if (const ValueDecl *Holder = callableHolder(Call)) {
    auto It = P->Bindings.find(Holder);
    if (It != P->Bindings.end())
      return It->second;
  }
  // An element of a container holding one registered callable runs it.
  if (auto Targets = registeredTargets(Call); Targets.size() == 1)
    return Targets.front();
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

llvm::ArrayRef<const FunctionDecl *>
Engine::callCandidates(const CallExpr *Call) {
  const ValueDecl *Holder = callableHolder(Call);
  if (!Holder || !P->Ambiguous.count(Holder))
    return {};
  auto It = P->Candidates.find(Holder);
  if (It == P->Candidates.end())
    return {};
  return It->second;
}

/// The container of callables whose element a call runs (`for (auto &h :
/// hooks) h(e);`, `hooks[i](e)`), or null.
static const ValueDecl *calledContainer(AnalysisManager &P,
                                        const CallExpr *Call) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!OC || OC->getOperator() != OO_Call || OC->getNumArgs() < 1)
    return nullptr;
  const Expr *Obj = strip(OC->getArg(0));
  // `for (auto &kv : hooks) kv.second();`: the element's callable part.
  if (const auto *M = dyn_cast<MemberExpr>(Obj);
      M && isa<DeclRefExpr>(strip(M->getBase())))
    Obj = strip(M->getBase());
  const ValueDecl *Container = nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(Obj)) {
    // for (auto &h : hooks) h(); for (auto &[name, h] : hooks) h();
    const ValueDecl *Element = DR->getDecl();
    if (const auto *Binding = dyn_cast<BindingDecl>(Element))
      if (const ValueDecl *Whole = Binding->getDecomposedDecl())
        Element = Whole;
    auto It = P.ElementOf.find(Element);
    if (It != P.ElementOf.end())
      Container = It->second;
  } else if (const auto *Sub = dyn_cast<CXXOperatorCallExpr>(Obj);
             Sub && Sub->getOperator() == OO_Subscript) { // hooks[i]()
    const Expr *Base = strip(Sub->getArg(0));
    if (const auto *DR = dyn_cast<DeclRefExpr>(Base))
      Container = DR->getDecl();
    else if (const auto *M = dyn_cast<MemberExpr>(Base))
      Container = M->getMemberDecl();
  }
  return Container;
}

llvm::ArrayRef<const FunctionDecl *>
Engine::registeredTargets(const CallExpr *Call) {
  const ValueDecl *Container = calledContainer(*P, Call);
  auto It = Container ? P->Registered.find(Container) : P->Registered.end();
  if (It == P->Registered.end())
    return {};
  return It->second;
}

llvm::ArrayRef<CallableRegistration>
Engine::registrations(const CallExpr *Call) {
  const ValueDecl *Container = calledContainer(*P, Call);
  auto It =
      Container ? P->Registrations.find(Container) : P->Registrations.end();
  if (It == P->Registrations.end())
    return {};
  return It->second;
}

const api::ApiEntry *Engine::apiRole(const CallExpr *Call, api::Role R) {
  return Api.find(resolveCallee(Call), R);
}

bool Engine::endsProgramNormally(const CallExpr *Call) {
  const api::ApiEntry *Row = apiRole(Call, api::Role::FailStop);
  int I = Row ? Row->Args.ExitStatus : -1;
  if (I < 0 || I >= (int)Call->getNumArgs())
    return false;
  auto V = evaluateInt(*this, Call->getArg(I));
  return V && *V == 0;
}

const FunctionDecl *Engine::enclosingFunction(const Stmt *S) {
  // Rules ask this several times of the statement they check: the last
  // answers are kept (the parent map never changes).
  auto &Memo = P->EnclosingMemo[(reinterpret_cast<uintptr_t>(S) >> 4) %
                                P->EnclosingMemo.size()];
  if (Memo.first == S)
    return Memo.second;
  DynTypedNode Node = DynTypedNode::create(*S);
  const FunctionDecl *Found = nullptr;
  // No depth cap: the walk ends at the TU, and a cap silently lost code
  // nested deeper than it (a collective 255 blocks deep had no function).
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      break;
    Node = Parents[0];
    if ((Found = Node.get<FunctionDecl>()))
      break;
    if (const auto *L = Node.get<LambdaExpr>()) {
      Found = L->getCallOperator();
      break;
    }
  }
  Memo = {S, Found};
  return Found;
}

bool Engine::neverRuns(const Stmt *S) {
  const FunctionDecl *FD = enclosingFunction(S);
  if (!FD)
    return false;
  P->prepare();
  if (const FunctionResult *R = P->analyze(FD);
      R && R->HasCfg && !R->HasUnreachableCode)
    return false;
  FactsRef F = facts(FD);
  if (!F)
    return false;
  const CFGBlock *B = F->blockOf(S);
  return B && !F->reachable(B);
}

FactsRef Engine::facts(const FunctionDecl *FD) {
  if (!FD)
    return {};
  P->prepare();
  if (ResidentResult R = P->resident(FD))
    return FactsRef(R->facts(), &R->Pins);
  // Library code and functions Clang builds no CFG for are not analyzed;
  // their facts are kept apart and never dropped.
  auto &Slot = P->FactsCache[FD];
  if (!Slot)
    Slot = FunctionFacts::build(FD, Ctx);
  return FactsRef(Slot.get(), nullptr);
}

const CFGBlock *Engine::liveJoin(const FunctionDecl *FD, const CFGBlock *B) {
  if (!FD || !B)
    return nullptr;
  P->prepare();
  if (ResidentResult R = P->resident(FD))
    return R.body().liveImmediatePostDominator(B);
  FactsRef F = facts(FD);
  return F ? F->immediatePostDominator(B) : nullptr;
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
  FactsRef F = facts(FD);
  if (!F)
    return Out;
  for (const CFGBlock *B : F->allControlDependencies(F->blockOf(S)))
    if (const Stmt *T = B->getTerminatorStmt())
      Out.push_back(T);
  return Out;
}

/// The name of the value variable VD holds in S (on a broadcast's root,
/// the message element it sent, as the other members name what they read;
/// its number when known; else the expression it was assigned from); 0
/// when it has none.
static uint64_t heldValueName(const VarState &S, const VarDecl *VD) {
  auto It = S.find(VD);
  if (It == S.end())
    return 0;
  const Taint &T = It->second;
  if (T.RootKey && !T.Vary)
    return T.RootKey;
  if (!T.knownValue())
    return 0;
  if (T.singleValue())
    return llvm::hash_combine(T.Range->Lo.W, T.Range->Lo.C) | 1;
  return T.ValueKey;
}

/// The abstract value of X where it stands in its function; with Name, the
/// name of the value a variable read there holds.
static std::optional<Taint> taintAt(Engine &E, AnalysisManager &P,
                                    const Expr *X, uint64_t *Name = nullptr) {
  const FunctionDecl *FD = E.enclosingFunction(X);
  if (!FD)
    return std::nullopt;
  P.prepare();
  ResidentResult R = P.resident(FD);
  if (!R)
    return std::nullopt;
  const CFGBlock *B = R.facts().blockOf(X);
  if (!B)
    return std::nullopt;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, X);
  if (Name)
    if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
        *Name = heldValueName(S, VD);
  return U.eval(X, S);
}

UniformityAnswer Engine::uniformity(const Expr *X) {
  UniformityAnswer A;
  std::optional<Taint> T = taintAt(*this, *P, X, &A.ValueName);
  if (T && T->Vary) {
    A.Uniform = false;
    A.Origin = T->Origin;
  }
  if (T)
    A.Params = T->Params;
  if (T && T->Range) {
    A.AtLeast = WorldLinearBound{T->Range->Lo.W, T->Range->Lo.C};
    A.AtMost = WorldLinearBound{T->Range->Hi.W, T->Range->Hi.C};
    if (!T->Vary && T->Range->Lo == T->Range->Hi && T->Range->Lo.W == 0)
      A.Constant = T->Range->Lo.C;
  }
  return A;
}

std::optional<VaryOrigin> Engine::shapeVaries(const Expr *X) {
  std::optional<Taint> T = taintAt(*this, *P, X);
  if (T && T->Vary && !T->ContentOnly)
    return T->Origin;
  return std::nullopt;
}

std::optional<std::pair<VaryOrigin, const CallExpr *>>
Engine::shapeVariesFromCallers(const Expr *X) {
  std::optional<Taint> T = taintAt(*this, *P, X);
  const FunctionDecl *FD = enclosingFunction(X);
  // A known shape (`torch::tensor({v})`) is no caller's to change.
  if (!T || T->Vary || !T->Params || T->ContentOnly || T->ShapeKey || !FD)
    return std::nullopt;
  // Parameters whose values select the elements (`(g > t).nonzero()`)
  // change the shape with their values, and so does an integer (a size);
  // a floating-point or boolean one is an element's value. Objects change
  // it with their own shapes.
  uint64_t ByValues = T->ShapeParams & T->Params, ByShapes = 0;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I) {
    const uint64_t Bit = uint64_t(1) << I;
    if (!(T->Params & Bit) || (ByValues & Bit) || (T->ElementParams & Bit))
      continue;
    QualType PT = FD->getParamDecl(I)->getType().getNonReferenceType();
    if (PT->isBooleanType() || PT->isRealFloatingType())
      continue;
    if (PT->isIntegralOrEnumerationType())
      ByValues |= Bit;
    else
      ByShapes |= Bit;
  }
  if (ByValues)
    if (auto Found = paramVaries(FD, ByValues, 0, /*ShapeOnly=*/false,
                                 /*SkipDivergentCalls=*/true))
      return Found;
  if (ByShapes)
    return paramVaries(FD, ByShapes, 0, /*ShapeOnly=*/true,
                       /*SkipDivergentCalls=*/true);
  return std::nullopt;
}

UniformityAnswer Engine::branchUniformity(const Stmt *Terminator) {
  UniformityAnswer A;
  const FunctionDecl *FD = enclosingFunction(Terminator);
  if (!FD)
    return A;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return A;
  for (const CFGBlock *B : R.facts().reversePostOrder())
    if (B->getTerminatorStmt() == Terminator) {
      auto It = R.body().BranchTaint.find(B);
      if (It != R.body().BranchTaint.end() && It->second.Vary) {
        A.Uniform = false;
        A.Origin = It->second.Origin;
      }
      break;
    }
  return A;
}

} // namespace distlint
