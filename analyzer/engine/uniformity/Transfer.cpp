//===- Transfer.cpp - Assignments, per-element transfer, fixpoint
//-----------===//
#include "engine/uniformity/UniformityAnalysis.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace distlint {

using api::Role;

void UniformityAnalysis::assignVar(const VarDecl *VD, Taint T, VarState &S,
                                   bool Strong) {
  if (!VD)
    return;
  if (!VD->hasLocalStorage() || VD->isStaticLocal()) {
    Taint G = T;
    G.Params = 0;
    if (G.Vary) {
      auto [It, New] = P.GlobalVary.try_emplace(VD, G);
      if (New)
        ++P.GrowthStamp;
    }
    return;
  }
  if (Strong)
    S[VD] = T;
  else {
    Taint Old = varTaint(VD, S);
    Old.join(T);
    S[VD] = Old;
  }
}

void UniformityAnalysis::assignLValue(const Expr *LHS, Taint T, VarState &S,
                                      bool Strong) {
  const Expr *L = strip(LHS);
  // Written through its address (`MPI_Comm_rank(comm, &rank)`).
  if (const auto *U = dyn_cast<UnaryOperator>(L);
      U && U->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr, MemberExpr>(strip(U->getSubExpr())))
    L = strip(U->getSubExpr());
  if (const auto *M = dyn_cast<MemberExpr>(L)) {
    const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (F && E.isUserCode(F)) {
      // Fields of the project's own types are tracked per field (TU-wide),
      // so `job.rank` varying does not make `job.size` vary.
      noteFieldWrite(F, T);
      return;
    }
    if (const VarDecl *Base = baseVar(M->getBase()))
      assignVar(Base, T, S, /*Strong=*/false);
    return;
  }
  if (const auto *DR = dyn_cast<DeclRefExpr>(L)) {
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl())) {
      // Assigning through a reference parameter writes the caller's object.
      assignVar(VD, T, S, Strong && !VD->getType()->isReferenceType());
      if (VD->getType()->isReferenceType() && isa<ParmVarDecl>(VD))
        assignVar(VD, T, S, true);
    }
    return;
  }
  if (const VarDecl *VD = baseVar(L)) {
    // Writing an element changes contents, not the object's length.
    // (A tensor element write never resizes the tensor, even under a
    // varying branch; a container's may: map[key], vector growth.)
    Taint Elem = T;
    if (Elem.Vary && (!ControlVaries || isTensorType(VD->getType())))
      Elem.ContentOnly = true;
    assignVar(VD, Elem, S, /*Strong=*/false);
  }
}

void UniformityAnalysis::noteFieldWrite(const FieldDecl *F, const Taint &T) {
  if (T.Vary) {
    Taint FT = T;
    FT.Params = 0;
    auto [It, New] = P.FieldVary.try_emplace(F, FT);
    if (New)
      ++P.GrowthStamp;
  }
  if (T.Params) {
    // The callers record the value their arguments give it.
    R.ParamToField.push_back({F, T.Params});
    return;
  }
  auto [It, New] = P.FieldRange.try_emplace(F, T.Range);
  if (New) {
    ++P.GrowthStamp;
    return;
  }
  if (!It->second)
    return;
  Taint Old, Now;
  Old.Range = It->second;
  Now.Range = T.Range;
  Old.join(Now);
  if (!(Old.Range == It->second)) {
    // Widen at once: a field that keeps changing (a counter) is unknown.
    It->second.reset();
    ++P.GrowthStamp;
  }
}

void UniformityAnalysis::transfer(const CFGElement &El, VarState &S,
                                  const Taint &Ctl) {
  if (auto Init = El.getAs<CFGInitializer>()) {
    const CXXCtorInitializer *CI = Init->getInitializer();
    if (const FieldDecl *F = CI->getMember(); F && CI->getInit()) {
      Taint T = eval(CI->getInit(), S);
      T.addControl(Ctl);
      if (E.isUserCode(F))
        noteFieldWrite(F, T);
    }
    return;
  }
  auto CS = El.getAs<CFGStmt>();
  if (!CS)
    return;
  ControlVaries = Ctl.Vary;
  const Stmt *St = CS->getStmt();
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        Taint T;
        if (const Expr *Init = VD->getInit()) {
          T = eval(Init, S);
          llvm::SmallVector<const VarDecl *, 2> Refs;
          collectVarRefs(Init, Refs);
          for (const VarDecl *V : Refs)
            if (V != VD && isTensorType(V->getType()) &&
                !isTensorType(VD->getType()))
              P.Aliases[VD].push_back(V);
          // A copy of a sub-communicator is one too.
          if (const VarDecl *Src = baseVar(Init); Src && P.SubComms.count(Src))
            if (P.SubComms.insert(VD).second)
              ++P.GrowthStamp;
          if (const auto *IC = dyn_cast<CallExpr>(strip(Init)))
            if (E.apiRole(IC, Role::CommSplit))
              if (P.SubComms.insert(VD).second)
                ++P.GrowthStamp;
        } else {
          T.UniformContent = !isTensorType(VD->getType());
        }
        T.addControl(Ctl);
        assignVar(VD, T, S, true);
      }
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(St)) {
    if (B->isAssignmentOp()) {
      Taint T = eval(B->getRHS(), S);
      if (B->isCompoundAssignmentOp()) {
        T.join(eval(B->getLHS(), S));
        T.Range.reset();
      }
      T.addControl(Ctl);
      assignLValue(B->getLHS(), T, S, !B->isCompoundAssignmentOp());
      if (const auto *IC = dyn_cast<CallExpr>(strip(B->getRHS())))
        if (E.apiRole(IC, Role::CommSplit))
          if (const VarDecl *VD = baseVar(B->getLHS()))
            if (P.SubComms.insert(VD).second)
              ++P.GrowthStamp;
    }
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(St)) {
    if (U->isIncrementDecrementOp()) {
      Taint T = eval(U->getSubExpr(), S);
      T.Range.reset();
      T.addControl(Ctl);
      assignLValue(U->getSubExpr(), T, S, true);
    }
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(St)) {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2) {
      Taint T = eval(OC->getArg(1), S);
      T.addControl(Ctl);
      assignLValue(OC->getArg(0), T, S, OC->getOperator() == OO_Equal);
      return;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(St)) {
    callEffects(Call, S, Ctl);
    return;
  }
  if (const auto *Ret = dyn_cast<ReturnStmt>(St)) {
    Taint T = eval(Ret->getRetValue(), S);
    T.addControl(Ctl);
    // The first return sets the value (its range too); later ones join.
    if (R.ReturnsSeen++ == 0)
      R.ReturnTaint = T;
    else
      R.ReturnTaint.join(T);
    return;
  }
}

Taint UniformityAnalysis::controlTaint(const CFGBlock *B,
                                       bool WithFailStopGuards) {
  Taint Ctl;
  Ctl.UniformContent = true;
  for (const CFGBlock *Dep : WithFailStopGuards
                                 ? R.Facts->allControlDependencies(B)
                                 : R.liveControlDependencies(B)) {
    auto It = R.BranchTaint.find(Dep);
    if (It != R.BranchTaint.end())
      Ctl.addControl(It->second);
  }
  return Ctl;
}

static VarState joinStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  for (const auto &[VD, T] : B) {
    auto It = Out.find(VD);
    if (It == Out.end())
      Out.emplace(VD, T);
    else
      It->second.join(T);
  }
  return Out;
}

static bool sameState(const VarState &A, const VarState &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first || !IA->second.sameAs(IB->second))
      return false;
  return true;
}

void UniformityAnalysis::run() {
  CFG &G = R.Facts->cfg();
  const auto &RPO = R.Facts->reversePostOrder();
  for (int Outer = 0; Outer < 6; ++Outer) {
    R.In.clear();
    R.ReturnTaint = Taint();
    R.ReturnTaint.UniformContent = true;
    R.ReturnsSeen = 0;
    llvm::DenseMap<const CFGBlock *, VarState> Out;
    llvm::DenseMap<const CFGBlock *, Taint> Ctl;
    for (const CFGBlock *B : RPO)
      Ctl[B] = controlTaint(B);
    bool Changed = true;
    for (int Iter = 0; Changed && Iter < 50; ++Iter) {
      Changed = false;
      for (const CFGBlock *B : RPO) {
        VarState In;
        bool First = true;
        for (const CFGBlock *Pred : B->preds()) {
          if (!Pred)
            continue;
          auto It = Out.find(Pred);
          if (It == Out.end())
            continue;
          In = First ? It->second : joinStates(In, It->second);
          First = false;
        }
        R.In[B] = In;
        VarState S = In;
        for (const CFGElement &El : *B)
          transfer(El, S, Ctl[B]);
        auto It = Out.find(B);
        if (It == Out.end() || !sameState(It->second, S)) {
          Out[B] = std::move(S);
          Changed = true;
        }
      }
    }
    // Branch conditions at the end of their block.
    llvm::DenseMap<const CFGBlock *, Taint> NewBranch;
    for (const CFGBlock *B : RPO) {
      const Stmt *Cond = B->getTerminatorCondition(/*StripParens=*/true);
      if (!Cond || !isa<Expr>(Cond))
        continue;
      NewBranch[B] = eval(cast<Expr>(Cond), Out[B]);
      // A range-for runs once per element: the same number of times on
      // every rank when only the elements differ, not the length.
      if (const auto *FR =
              dyn_cast_or_null<CXXForRangeStmt>(B->getTerminatorStmt()))
        if (const Expr *Range = FR->getRangeInit()) {
          Taint RT = eval(Range, Out[B]);
          if (!RT.depends() || (RT.Vary && RT.ContentOnly && !RT.Params)) {
            Taint Same;
            Same.UniformContent = true;
            NewBranch[B] = Same;
          } else if (!RT.Vary && RT.Params) {
            // The trip count follows the length of what the callers pass:
            // ContentOnly on a parameter-only taint marks "shape only".
            Taint ByShape;
            ByShape.Params = RT.Params;
            ByShape.ContentOnly = true;
            NewBranch[B] = ByShape;
          }
        }
    }
    // Return values: replay once more to read them at their statements.
    R.ReturnTaint = Taint();
    R.ReturnTaint.UniformContent = true;
    R.ReturnsSeen = 0;
    R.AllPoints.clear();
    for (const CFGBlock *B : RPO) {
      VarState S = R.In[B];
      for (const CFGElement &El : *B)
        transfer(El, S, Ctl[B]);
      R.AllPoints = joinStates(R.AllPoints, S);
    }
    bool Stable = NewBranch.size() == R.BranchTaint.size();
    if (Stable)
      for (auto &[B, T] : NewBranch) {
        auto It = R.BranchTaint.find(B);
        if (It == R.BranchTaint.end() || !It->second.sameAs(T) ||
            It->second.Vary != T.Vary) {
          Stable = false;
          break;
        }
      }
    R.BranchTaint = std::move(NewBranch);
    if (Stable)
      break;
  }
  (void)G;
}

VarState UniformityAnalysis::stateBefore(const CFGBlock *B,
                                         const Stmt *Target) {
  VarState S = R.In.lookup(B);
  Taint Ctl = controlTaint(B);
  const ParentMap &PM = R.Facts->parents();
  for (const CFGElement &El : *B) {
    if (auto CS = El.getAs<CFGStmt>()) {
      const Stmt *St = CS->getStmt();
      // Stop at the element that is the target or contains it.
      for (const Stmt *Cur = Target; Cur; Cur = PM.getParent(Cur))
        if (Cur == St)
          return S;
    }
    transfer(El, S, Ctl);
  }
  return S;
}

} // namespace distlint
