//===- HostDecisions.cpp --------------------------------------------------===//
#include "HostDecisions.h"
#include "engine/Engine.h"

#include "engine/Construction.h"
#include "engine/ast/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

using namespace clang;

namespace distlint {

namespace {

/// The values of one function that derive from some seed expressions:
/// variables given a value that mentions a seed or a derived variable (by
/// initialization, assignment of the whole or a part, a range-for over it,
/// a method that stores it into the object). Flow-insensitive: a variable
/// derived on one path counts everywhere.
class Derived {
public:
  Derived(llvm::ArrayRef<const Stmt *> Seeds,
          llvm::ArrayRef<const VarDecl *> SeedVars)
      : Seeds(Seeds.begin(), Seeds.end()),
        Vars(SeedVars.begin(), SeedVars.end()) {}

  void propagate(const Stmt *Body) {
    // Each round adds at least one variable, or stops.
    for (unsigned Round = 0; Round < 64; ++Round) {
      size_t Before = Vars.size();
      visit(Body);
      if (Vars.size() == Before)
        return;
    }
  }

  bool mentions(const Stmt *S) const {
    if (!S)
      return false;
    if (Seeds.count(S))
      return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && Vars.count(V))
        return true;
    for (const Stmt *Child : S->children())
      if (mentions(Child))
        return true;
    return false;
  }

  bool holds(const VarDecl *V) const { return Vars.count(V); }

private:
  llvm::DenseSet<const Stmt *> Seeds;
  llvm::DenseSet<const VarDecl *> Vars;

  void add(const VarDecl *V) {
    if (V)
      Vars.insert(V);
  }

  void visit(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && mentions(V->getInit()))
          add(V);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && mentions(BO->getRHS()))
        add(baseVar(BO->getLHS()));
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
      if (OC->isAssignmentOp() && OC->getNumArgs() == 2 &&
          mentions(OC->getArg(1)))
        add(baseVar(OC->getArg(0)));
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      // `values.push_back(t.item())`: a method that changes the object.
      const auto *MD = MC->getMethodDecl();
      if (MD && !MD->isConst() &&
          llvm::any_of(MC->arguments(),
                       [&](const Expr *A) { return mentions(A); }))
        add(baseVar(MC->getImplicitObjectArgument()));
    } else if (const auto *RF = dyn_cast<CXXForRangeStmt>(S)) {
      if (mentions(RF->getRangeInit()))
        add(RF->getLoopVariable());
    }
    for (const Stmt *Child : S->children())
      visit(Child);
  }
};

/// Does some condition inside Region depend on a derived value?
bool decidesIn(const Stmt *Region, const Derived &D) {
  if (!Region)
    return false;
  // A range-for over derived values repeats work, it does not choose.
  Decision Dec = decisionOf(Region);
  const Expr *Cond = Dec.IsRangeFor ? nullptr : Dec.Cond;
  if (D.mentions(Cond))
    return true;
  for (const Stmt *Child : Region->children())
    if (decidesIn(Child, D))
      return true;
  return false;
}

/// Does a return statement in Body hand back a derived value?
bool returnsDerived(const Stmt *Body, const Derived &D) {
  if (!Body)
    return false;
  if (const auto *Ret = dyn_cast<ReturnStmt>(Body))
    return D.mentions(Ret->getRetValue());
  if (isa<LambdaExpr>(Body))
    return false; // Its returns are its own.
  for (const Stmt *Child : Body->children())
    if (returnsDerived(Child, D))
      return true;
  return false;
}

/// The pointer and non-const reference parameters of FD that hold a
/// derived value (written through them for the caller).
uint64_t derivedOutParams(const FunctionDecl *FD, const Derived &D) {
  uint64_t Mask = 0;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    QualType T = PD->getType();
    if ((T->isPointerType() || T->isReferenceType()) &&
        !T->getPointeeType().isConstQualified() && D.holds(PD))
      Mask |= uint64_t(1) << I;
  }
  return Mask;
}

} // namespace

bool hostDecidesOnCopy(Engine &E, const CallExpr *Copy,
                       const StepContext &Step) {
  llvm::SmallVector<const Stmt *, 1> Seeds = {Copy};
  llvm::SmallVector<const VarDecl *, 4> SeedVars;
  // A copy into a host buffer (cudaMemcpy's destination) brings the value
  // there rather than as its result.
  if (const FunctionDecl *Callee = E.resolveCallee(Copy))
    if (const api::ApiEntry *Row =
            E.api().find(Callee, api::Role::ImplicitSync);
        Row && Row->Args.Recv >= 0)
      if (const VarDecl *V =
              baseVar(callArgument(Copy, Callee, Row->Args.Recv)))
        SeedVars.push_back(V);
  const FunctionDecl *FD = E.enclosingFunction(Copy);
  // From the copy's function up the calls to the step loop's function.
  for (size_t K = Step.Via.size() + 1; K-- > 0 && FD && FD->getBody();) {
    Derived D(Seeds, SeedVars);
    D.propagate(FD->getBody());
    bool InLoop = K == 0;
    // In a helper every condition runs each step; in the loop's function,
    // those inside the loop do.
    if (decidesIn(InLoop ? Step.Loop : FD->getBody(), D))
      return true;
    if (InLoop)
      return false;
    const auto *Call = dyn_cast<CallExpr>(Step.Via[K - 1]);
    if (!Call)
      return false; // A lambda the loop runs: its result is not read.
    bool Returned = returnsDerived(FD->getBody(), D);
    uint64_t Out = derivedOutParams(FD, D);
    if (!Returned && !Out)
      return false;
    Seeds.clear();
    SeedVars.clear();
    if (Returned)
      Seeds.push_back(Call);
    const FunctionDecl *Callee = E.resolveCallee(Call);
    for (unsigned I = 0; Callee && I < Call->getNumArgs() && I < 64; ++I)
      if (Out & (uint64_t(1) << I))
        if (const VarDecl *V = baseVar(callArgument(Call, Callee, I)))
          SeedVars.push_back(V);
    FD = E.enclosingFunction(Call);
  }
  return false;
}

} // namespace distlint
