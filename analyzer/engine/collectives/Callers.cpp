//===- Callers.cpp - What the calls of a function pass it -----------------===//
//
// The Engine facade's questions about a function's call sites in the TU:
// who calls it, whether some call passes a rank-varying argument for a
// parameter (the divergence a helper inherits), and whether every call
// passes the rank (a helper's rank classes), and whether every call
// balances a helper's rank-dependent collectives.
//
//===----------------------------------------------------------------------===//
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/EngineCache.h"
#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"
#include "engine/collectives/RankClasses.h"
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

/// Call sites of FD in user code (for parameter-carried divergence).
std::vector<const CallExpr *> Engine::callersOf(const FunctionDecl *FD) {
  P->prepare();
  if (!CallSitesBuilt) {
    CallSitesBuilt = true;
    // From the bodies' syntax: building every CFG again only to list
    // calls cost as much as a tenth of a large TU's analysis.
    llvm::SmallVector<const CallExpr *, 32> Calls;
    for (const FunctionDecl *F : P->UserFunctions) {
      const FunctionResult *R = P->analyze(F);
      if (!R || !R->HasCfg)
        continue;
      const FunctionDecl *Def = F->getDefinition();
      Calls.clear();
      collectBodyCalls(Def ? Def : F, Calls);
      for (const CallExpr *Call : Calls)
        if (const FunctionDecl *Callee = resolveCallee(Call)) {
          const FunctionDecl *CalleeDef = Callee->getDefinition();
          CallSites[CalleeDef ? CalleeDef : Callee].push_back(Call);
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
                    bool ShapeOnly, bool SkipDivergentCalls) {
  if (Depth > P->Limits.CallerDepth) {
    P->Limits.hit("caller depth", FD->getQualifiedNameAsString());
    return std::nullopt;
  }
  // The fields FD reads of the objects it is given (ParamFieldReads).
  const FunctionDecl *Def = FD->getDefinition();
  const FunctionResult *Own = P->analyze(Def ? Def : FD);
  for (const CallExpr *Call : callersOf(FD)) {
    const FunctionDecl *Caller = enclosingFunction(Call);
    ResidentResult R = Caller ? P->resident(Caller) : ResidentResult();
    if (!R)
      continue;
    const CFGBlock *B = R.facts().blockOf(Call);
    if (!B)
      continue;
    UniformityAnalysis U(*this, Caller, *R);
    // A call under a branch that differs between ranks (or that the
    // callers' arguments decide): what it is passed carries that branch
    // (values assigned under it vary with it), and whether every rank makes
    // the call is asked of the call itself.
    if (SkipDivergentCalls && U.controlTaint(B).depends())
      continue;
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
      const Expr *Arg = Call->getArg(I + Shift);
      Taint T = Own ? U.passedArgument(*Own, I, Arg, S) : U.eval(Arg, S);
      // Of a shape known here (`torch::full({1}, n)`), what reaches it
      // reaches its values only.
      if (ShapeOnly && T.ShapeKey && !T.ShapePending)
        continue;
      if (T.Vary && !(ShapeOnly && T.ContentOnly))
        return std::make_pair(T.Origin, Call);
      // Parameters that reach the elements only say nothing of the shape.
      CallerMask |= ShapeOnly ? T.Params & ~T.ElementParams : T.Params;
    }
    // A lambda's captures: what the caller holds in them at the call.
    for (unsigned I = FD->getNumParams(); I < 64; ++I)
      if (Mask & (uint64_t(1) << I))
        if (const VarDecl *Captured = lambdaCaptureAt(FD, I)) {
          Taint T = U.variable(Captured, S);
          if (T.Vary && !(ShapeOnly && T.ContentOnly))
            return std::make_pair(T.Origin, Call);
          CallerMask |= T.Params;
        }
    if (CallerMask)
      if (auto Found = paramVaries(Caller, CallerMask, Depth + 1, ShapeOnly,
                                   SkipDivergentCalls))
        return std::make_pair(Found->first, Call);
  }
  return std::nullopt;
}

uint64_t Engine::paramsKnownPerCaller(const FunctionDecl *FD) {
  uint64_t Mask = 0;
  for (const ParmVarDecl *PD : FD->parameters()) {
    QualType T = PD->getType();
    if (PD->getFunctionScopeIndex() < 64 && !T->isReferenceType() &&
        (T->isArithmeticType() || T->isEnumeralType()))
      Mask |= uint64_t(1) << PD->getFunctionScopeIndex();
  }
  const FunctionDecl *Def = FD->getDefinition();
  if (const FunctionResult *R = P->analyze(Def ? Def : FD))
    for (const auto &[Index, Field] : R->ParamFieldReads)
      Mask |= uint64_t(1) << Index;
  return Mask;
}

namespace {
/// rankAtEveryCall's answers, per parameter, for the TU.
struct RankParams : EngineExtension {
  explicit RankParams(Engine &) {}
  llvm::DenseMap<const ParmVarDecl *, bool> Known;
};
} // namespace

bool Engine::rankAtEveryCall(const ParmVarDecl *PD, int Depth) {
  auto &Memo = engineExtension<RankParams>(*this).Known;
  if (auto It = Memo.find(PD); It != Memo.end())
    return It->second;
  const auto *FD = dyn_cast<FunctionDecl>(PD->getDeclContext());
  if (!FD || !FD->getBody() || Depth > P->Limits.CallerDepth)
    return false; // Not remembered: a shallower question may get further.
  const FunctionDecl *Def = FD->getDefinition();
  std::vector<const CallExpr *> Calls = callersOf(Def ? Def : FD);
  const unsigned Index = PD->getFunctionScopeIndex();
  // Structure first (a helper whose callers pass something else, or that
  // nobody calls, is answered without replaying any caller); the value at
  // each call and whether the helper writes the parameter after.
  bool Answer = !Calls.empty();
  for (const CallExpr *Call : Calls) {
    if (!Answer)
      break;
    const FunctionDecl *Caller = enclosingFunction(Call);
    const Expr *Arg = callArgument(Call, FD, Index);
    // The caller's own parameter, passed on unchanged: the caller's callers
    // decide.
    const auto *DR =
        Arg ? dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()) : nullptr;
    if (const auto *Outer =
            DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr) {
      Answer = rankAtEveryCall(Outer, Depth + 1);
      continue;
    }
    ResidentResult R = Caller ? P->resident(Caller) : ResidentResult();
    const CFGBlock *B = R ? R.facts().blockOf(Call) : nullptr;
    if (!B || !Arg) {
      Answer = false;
      break;
    }
    UniformityAnalysis U(*this, Caller, *R);
    Answer = U.eval(Arg, U.stateBefore(B, Call)).IsRank;
  }
  Answer = Answer && !isWrittenIn(*this, PD, FD->getBody());
  Memo[PD] = Answer;
  return Answer;
}

bool Engine::balancedAtEveryCall(const FunctionDecl *FD, const Stmt *Branch,
                                 int Depth) {
  if (Depth > P->Limits.CallerDepth)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  std::vector<const CallExpr *> Calls = callersOf(Def ? Def : FD);
  if (Calls.empty())
    return false;
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Caller = enclosingFunction(Call);
    if (!Caller)
      return false;
    // Every class of the caller decides Branch and issues what the call
    // issues at the same position; or the caller is such a helper itself.
    if (!collectives::ruledOutByRankClasses(*this, Caller, Branch, Call) &&
        !balancedAtEveryCall(Caller, Branch, Depth + 1))
      return false;
  }
  return true;
}

} // namespace distlint
