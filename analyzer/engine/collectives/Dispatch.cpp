//===- Dispatch.cpp - Calls whose target the run chooses ------------------===//
#include "engine/collectives/Dispatch.h"
#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/collectives/Divergence.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <functional>

using namespace clang;

namespace distlint {

llvm::SmallVector<const FunctionDecl *, 4>
Engine::overriders(const FunctionDecl *Method) {
  llvm::SmallVector<const FunctionDecl *, 4> Out;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Method);
  if (!MD || !MD->isVirtual())
    return Out;
  MD = MD->getCanonicalDecl();
  if (auto It = P->Overriders.find(MD); It != P->Overriders.end())
    return It->second;
  std::function<bool(const CXXMethodDecl *, int)> Overrides =
      [&](const CXXMethodDecl *M, int Depth) {
        if (M->getCanonicalDecl() == MD)
          return true;
        if (Depth > 8)
          return false;
        for (const CXXMethodDecl *O : M->overridden_methods())
          if (Overrides(O, Depth + 1))
            return true;
        return false;
      };
  for (const FunctionDecl *F : userFunctions())
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && M->doesThisDeclarationHaveABody() && Overrides(M, 0) &&
        !llvm::is_contained(Out, M))
      Out.push_back(M);
  P->Overriders[MD] = Out;
  return Out;
}

namespace collectives {
namespace {
/// The virtual call's static callee when its object's class is not known
/// (resolveCallee found no overrider of its own).
const CXXMethodDecl *unresolvedVirtual(Engine &E, const CallExpr *Call) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->isVirtual() || E.resolveCallee(Call) != MD)
    return nullptr;
  // Qualified calls (Base::f()) are not dispatched.
  if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
      ME && ME->hasQualifier())
    return nullptr;
  return MD;
}

/// The call operators of a visitor (`[](auto &r) { r.run(); }`, a struct
/// of overloads): each one, or each instantiation of a template one.
llvm::SmallVector<const FunctionDecl *, 4> callOperators(const Expr *Visitor) {
  llvm::SmallVector<const FunctionDecl *, 4> Out;
  const CXXRecordDecl *RD =
      Visitor ? Visitor->getType().getNonReferenceType()->getAsCXXRecordDecl()
              : nullptr;
  if (!RD || !RD->hasDefinition())
    return Out;
  for (const Decl *D : RD->decls()) {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D);
        MD && MD->getOverloadedOperator() == OO_Call)
      Out.push_back(MD);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D);
        FT && FT->getTemplatedDecl()->getOverloadedOperator() == OO_Call)
      for (const FunctionDecl *Spec : FT->specializations())
        Out.push_back(Spec);
  }
  return Out;
}

/// What chooses the target of such a call: the object, the holder, or the
/// variant a visitor is given.
const Expr *chooser(Engine &E, const CallExpr *Call) {
  if (const api::ApiEntry *Row = E.apiRole(Call, api::Role::VariantDispatch))
    return Row->Args.Send >= 0 && Row->Args.Send < (int)Call->getNumArgs()
               ? Call->getArg(Row->Args.Send)
               : nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call))
    return OC->getNumArgs() ? OC->getArg(0) : nullptr;
  return Call->getCallee();
}
} // namespace

llvm::SmallVector<const FunctionDecl *, 4>
possibleTargets(Engine &E, const CallExpr *Call, bool Registered) {
  if (const CXXMethodDecl *MD = unresolvedVirtual(E, Call))
    return E.overriders(MD);
  // std::visit: the alternative the variant holds picks the overload.
  if (const api::ApiEntry *Row = E.apiRole(Call, api::Role::VariantDispatch))
    if (Row->Args.Value >= 0 && Row->Args.Value < (int)Call->getNumArgs())
      return callOperators(Call->getArg(Row->Args.Value));
  llvm::ArrayRef<const FunctionDecl *> C = E.callCandidates(Call);
  if (C.empty() && Registered)
    C = E.registeredTargets(Call);
  return llvm::SmallVector<const FunctionDecl *, 4>(C.begin(), C.end());
}

std::optional<Engine::Divergence> dispatchDivergence(Engine &E,
                                                     const CallExpr *Call) {
  auto Overs = possibleTargets(E, Call);
  if (Overs.size() < 2)
    return std::nullopt;
  // The collectives each target issues, compared as two rank classes'
  // (choices on agreed values made alike); sends and receives pair with
  // peers of any class, which this question does not follow.
  CalleeTrees Callees;
  const FunctionDecl *First = nullptr, *Other = nullptr;
  NodeRef FirstTree;
  for (const FunctionDecl *Over : Overs) {
    if (!Over->hasBody() || !isTaughtDecl(E, Over))
      continue;
    NodeRef Tree = collectivesOnly(functionSequence(E, Over, Callees));
    if (!First) {
      First = Over;
      FirstTree = Tree;
      continue;
    }
    CompareBudget Budget;
    Budget.Steps = E.limits().SequenceSteps;
    auto Found = firstDifference(FirstTree, Tree, Budget);
    if (Budget.Exhausted) {
      noteBudgetHit(E, "collective-sequence comparison steps", Over);
      break;
    }
    if (Found) {
      Other = Over;
      break;
    }
  }
  if (!Other)
    return std::nullopt;
  const Expr *By = chooser(E, Call);
  UniformityAnswer A = By ? E.uniformity(By) : UniformityAnswer{};
  if (A.Uniform || !A.Origin)
    return std::nullopt;
  Engine::Divergence D;
  D.Origin = *A.Origin;
  D.Overrider = First;
  D.OtherOverrider = Other;
  return D;
}

bool issuesCollectives(Engine &E, const FunctionDecl *FD) {
  return FD && FD->hasBody() && isTaughtDecl(E, FD) &&
         E.summary(FD).IssuesCollective;
}

bool iteratesRegistrations(Engine &E, const CallExpr *Call,
                           const Stmt *Terminator) {
  const auto *Loop = dyn_cast_or_null<CXXForRangeStmt>(Terminator);
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Loop || !OC || OC->getNumArgs() < 1 || E.registrations(Call).empty())
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(strip(OC->getArg(0)));
  return DR && DR->getDecl() == Loop->getLoopVariable();
}

} // namespace collectives

/// `for (auto &h : hooks) h(e);` runs every callable registered in hooks:
/// one that issues collectives but was registered on some ranks only (under
/// a branch on rank-local data) runs on those ranks only. The branch around
/// its registration is the divergence.
std::optional<Engine::Divergence>
Engine::registrationDivergence(const CallExpr *Call) {
  for (const CallableRegistration &Reg : registrations(Call)) {
    if (!collectives::issuesCollectives(*this, Reg.Target))
      continue;
    const FunctionDecl *At = enclosingFunction(Reg.Site);
    ResidentResult R = At ? P->resident(At) : ResidentResult();
    const CFGBlock *B = R ? R.facts().blockOf(Reg.Site) : nullptr;
    if (!B)
      continue;
    for (const CFGBlock *Dep : R.body().liveControlDependencies(B)) {
      auto It = R.body().BranchTaint.find(Dep);
      if (It == R.body().BranchTaint.end())
        continue;
      // A helper that registers on some of its callers' arguments only
      // (`if (rank != 0) return;` then `hooks.add(...)`): the callers decide.
      std::optional<VaryOrigin> Origin;
      if (It->second.Vary)
        Origin = It->second.Origin;
      else if (It->second.Params)
        if (auto Found = paramVaries(At, It->second.Params, 0,
                                     /*ShapeOnly=*/false,
                                     /*SkipDivergentCalls=*/false))
          Origin = Found->first;
      if (!Origin)
        continue;
      Divergence D;
      D.Branch = Dep->getTerminatorStmt();
      D.Condition = dyn_cast_or_null<Expr>(
          const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
      D.IsLoop = isLoopStmt(D.Branch);
      D.Origin = *Origin;
      return D;
    }
  }
  return std::nullopt;
}

} // namespace distlint
