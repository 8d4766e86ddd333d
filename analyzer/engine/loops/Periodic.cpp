//===- Periodic.cpp --------------------------------------------------===//
//
// "Does this value change from one iteration (or call) to the next", and
// the guards that let a statement run only on some iterations: `step % N`,
// counters the guarded code resets, flags and predicate helpers built on them.
//
//===----------------------------------------------------------------------===//
#include "LoopsInternal.h"

using namespace clang;

namespace distlint {
namespace loops {

namespace {

/// Does T leave the current iteration on every path (continue, break,
/// return, throw, or a block ending in one)?
bool alwaysLeaves(const Stmt *T) {
  if (!T)
    return false;
  if (isa<ContinueStmt, BreakStmt, ReturnStmt, GotoStmt>(T))
    return true;
  if (const auto *X = dyn_cast<Expr>(T))
    return isa<CXXThrowExpr>(X->IgnoreParenImpCasts());
  if (const auto *C = dyn_cast<CompoundStmt>(T))
    return !C->body_empty() && alwaysLeaves(C->body_back());
  if (const auto *I = dyn_cast<IfStmt>(T))
    return alwaysLeaves(I->getThen()) && alwaysLeaves(I->getElse());
  return false;
}


bool contains(const SourceManager &SM, const Stmt *Region, SourceLocation L) {
  if (!Region || L.isInvalid())
    return false;
  SourceRange R = Region->getSourceRange();
  L = SM.getExpansionLoc(L);
  SourceLocation B = SM.getExpansionLoc(R.getBegin());
  SourceLocation En = SM.getExpansionLoc(R.getEnd());
  return !SM.isBeforeInTranslationUnit(L, B) &&
         !SM.isBeforeInTranslationUnit(En, L);
}

const Expr *argumentFor(const CallExpr *Call, const FunctionDecl *Callee,
                        const ParmVarDecl *P) {
  unsigned Index = P->getFunctionScopeIndex();
  unsigned Shift = 0;
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
      !cast<CXXMethodDecl>(Callee)->isStatic())
    Shift = 1;
  if (Index + Shift < Call->getNumArgs())
    return Call->getArg(Index + Shift);
  return nullptr;
}

bool varyingVar(Engine &E, const VarDecl *V, const VaryContext &C, int Depth) {
  if (Depth > 6)
    return false;
  if (C.Callee) {
    if (const auto *P = dyn_cast<ParmVarDecl>(V);
        P && P->getDeclContext() == C.Callee && C.Call && C.Outer) {
      const Expr *Arg = argumentFor(C.Call, C.Callee, P);
      return Arg && varies(E, Arg, *C.Outer, Depth + 1);
    }
    if (isa<ParmVarDecl>(V))
      return true; // Unknown caller: a parameter may change per call.
    if (isWrittenIn(E, V, C.Callee->getBody()))
      return true;
    if (V->hasLocalStorage())
      if (const Expr *Init = V->getInit())
        return varies(E, Init, C, Depth + 1);
    return false;
  }
  if (!C.Loop)
    return false;
  if (const auto *R = dyn_cast<CXXForRangeStmt>(C.Loop))
    if (R->getLoopVariable() == V)
      return true;
  if (isWrittenIn(E, V, C.Loop))
    return true;
  // A variable declared inside the loop takes a fresh value each iteration.
  if (V->hasLocalStorage() &&
      contains(E.context().getSourceManager(), C.Loop, V->getLocation()))
    if (const Expr *Init = V->getInit())
      return varies(E, Init, C, Depth + 1);
  return false;
}

/// Is field F written (assigned, incremented) inside Region?
bool fieldWrittenIn(const FieldDecl *F, const Stmt *Region) {
  if (!Region)
    return false;
  auto IsF = [&](const Expr *L) {
    const auto *M = dyn_cast<MemberExpr>(L->IgnoreParenImpCasts());
    return M && M->getMemberDecl() == F;
  };
  if (const auto *U = dyn_cast<UnaryOperator>(Region);
      U && U->isIncrementDecrementOp() && IsF(U->getSubExpr()))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(Region);
      B && B->isAssignmentOp() && IsF(B->getLHS()))
    return true;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Region);
      OC && OC->getNumArgs() >= 1 &&
      (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
       OC->getOperator() == OO_MinusMinus) &&
      IsF(OC->getArg(0)))
    return true;
  for (const Stmt *Child : Region->children())
    if (fieldWrittenIn(F, Child))
      return true;
  return false;
}


} // namespace

bool varies(Engine &E, const Expr *X, const VaryContext &C, int Depth) {
  if (!X || Depth > 8)
    return false;
  X = X->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return varyingVar(E, V, C, Depth);
    return false;
  }
  if (const auto *M = dyn_cast<MemberExpr>(X)) {
    if (isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl())) {
        const Stmt *Region = C.Loop     ? C.Loop
                             : C.Callee ? C.Callee->getBody()
                                        : nullptr;
        return fieldWrittenIn(F, Region);
      }
    return varies(E, M->getBase(), C, Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(X))
    if (const FunctionDecl *Callee = E.resolveCallee(Call))
      if (E.api().has(Callee, api::Role::LocalDataSource))
        return true;
  if (isa<LambdaExpr>(X))
    return false;
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (varies(E, CE, C, Depth + 1))
        return true;
  return false;
}


namespace {

/// Variables read by X (through member accesses and calls).
void referencedVars(const Expr *X,
                    llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!X)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Out.push_back(V);
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      referencedVars(CE, Out);
}

void referencedFields(const Expr *X,
                      llvm::SmallVectorImpl<const FieldDecl *> &Out) {
  if (!X)
    return;
  if (const auto *M = dyn_cast<MemberExpr>(X->IgnoreParenImpCasts()))
    if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
      Out.push_back(F);
  for (const Stmt *Child : X->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      referencedFields(CE, Out);
}

bool isComparison(const Expr *X, const Expr *&L, const Expr *&R, bool &IsEq) {
  X = X->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(X); B && B->isComparisonOp()) {
    L = B->getLHS();
    R = B->getRHS();
    IsEq = B->getOpcode() == BO_EQ;
    return true;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X);
      OC && OC->getNumArgs() == 2) {
    switch (OC->getOperator()) {
    case OO_EqualEqual:
    case OO_ExclaimEqual:
    case OO_Less:
    case OO_LessEqual:
    case OO_Greater:
    case OO_GreaterEqual:
      L = OC->getArg(0);
      R = OC->getArg(1);
      IsEq = OC->getOperator() == OO_EqualEqual;
      return true;
    default:
      break;
    }
  }
  return false;
}

bool isInequality(const Expr *X) {
  X = X->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(X))
    return B->getOpcode() == BO_NE;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(X))
    return OC->getOperator() == OO_ExclaimEqual;
  return false;
}

bool writtenInRegion(Engine &E, const Expr *Operands,
                     llvm::ArrayRef<const Stmt *> Region) {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  llvm::SmallVector<const FieldDecl *, 4> Fields;
  referencedVars(Operands, Vars);
  referencedFields(Operands, Fields);
  for (const Stmt *S : Region) {
    for (const VarDecl *V : Vars)
      if (isWrittenIn(E, V, S))
        return true;
    for (const FieldDecl *F : Fields)
      if (fieldWrittenIn(F, S))
        return true;
  }
  return false;
}

/// A value that advances by a fixed step: a variable, possibly offset or
/// scaled by loop-invariant values (`step`, `i + 1`, `epoch * n + i`).
bool isCounterLike(const Expr *X) {
  X = X->IgnoreParenImpCasts();
  if (isa<DeclRefExpr>(X) || isa<MemberExpr>(X))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(X))
    return U->isIncrementDecrementOp() && isCounterLike(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(X))
    return B->isAdditiveOp() || B->isMultiplicativeOp();
  return false;
}

bool periodicCond(Engine &E, const Expr *Cond,
                  llvm::ArrayRef<const Stmt *> Region, const VaryContext &C,
                  int Depth, bool WhenTrue = true) {
  if (!Cond || Depth > 5)
    return false;
  Cond = Cond->IgnoreParenImpCasts();
  // `step % N`, `(i + 1) % every == 0`, `(step & 63) == 0` anywhere in the
  // condition: true on a fixed fraction of iterations.
  bool Found = false;
  std::function<void(const Stmt *)> Scan = [&](const Stmt *S) {
    if (!S || Found || isa<LambdaExpr>(S))
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S)) {
      if (B->getOpcode() == BO_Rem && varies(E, B->getLHS(), C, 0))
        Found = true;
      if (B->getOpcode() == BO_And &&
          ((evaluateInt(E, B->getRHS()) && varies(E, B->getLHS(), C, 0)) ||
           (evaluateInt(E, B->getLHS()) && varies(E, B->getRHS(), C, 0))))
        Found = true;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Percent && OC->getNumArgs() == 2 &&
        varies(E, OC->getArg(0), C, 0))
      Found = true;
    for (const Stmt *Child : S->children())
      Scan(Child);
  };
  Scan(Cond);
  if (Found)
    return true;

  if (const auto *B = dyn_cast<BinaryOperator>(Cond)) {
    // (a && b) holding, or (a || b) failing, needs both parts.
    bool Both = (B->getOpcode() == BO_LAnd) == WhenTrue;
    if (B->isLogicalOp()) {
      bool L = periodicCond(E, B->getLHS(), Region, C, Depth + 1, WhenTrue);
      bool R = periodicCond(E, B->getRHS(), Region, C, Depth + 1, WhenTrue);
      return Both ? (L || R) : (L && R);
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return periodicCond(E, U->getSubExpr(), Region, C, Depth + 1, !WhenTrue);

  const Expr *L = nullptr, *R = nullptr;
  bool IsEq = false;
  if (isComparison(Cond, L, R, IsEq)) {
    bool IsEqOrNe = IsEq || isInequality(Cond);
    bool LV = varies(E, L, C, 0), RV = varies(E, R, C, 0);
    // A counter compared against a stride that the guarded code resets or
    // advances: `if (++since == every) { since = 0; ... }`,
    // `if (step >= next_log) { next_log += every; ... }`.
    if ((LV || RV) &&
        (writtenInRegion(E, L, Region) || writtenInRegion(E, R, Region)))
      return true;
    // A counter equal to a fixed value: at most once per loop.
    if (IsEq == WhenTrue && IsEqOrNe && (LV != RV) && isCounterLike(LV ? L : R))
      return true;
    return false;
  }
  // A flag computed from a periodic condition.
  if (const auto *DR = dyn_cast<DeclRefExpr>(Cond))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      const Expr *Def = soleDefinition(E, V);
      if (!Def && V->hasLocalStorage() && C.Loop &&
          contains(E.context().getSourceManager(), C.Loop, V->getLocation()))
        Def = V->getInit();
      return Def && periodicCond(E, Def, Region, C, Depth + 1, WhenTrue);
    }
  // A predicate helper: `if (should_log(step))`.
  if (const auto *Call = dyn_cast<CallExpr>(Cond)) {
    const FunctionDecl *Callee = userDefinition(E, E.resolveCallee(Call));
    if (!Callee)
      return false;
    VaryContext Inner{nullptr, Callee, Call, &C};
    bool Any = false;
    std::function<void(const Stmt *)> Returns = [&](const Stmt *S) {
      if (!S || Any || isa<LambdaExpr>(S))
        return;
      if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
        if (periodicCond(E, Ret->getRetValue(), {}, Inner, Depth + 1, WhenTrue))
          Any = true;
        return;
      }
      for (const Stmt *Child : S->children())
        Returns(Child);
    };
    Returns(Callee->getBody());
    return Any;
  }
  return false;
}

} // namespace

llvm::SmallVector<Guard, 4> guardsBetween(Engine &E, const Stmt *S,
                                          const Stmt *Stop) {
  llvm::SmallVector<Guard, 4> Out;
  forEachEnclosingStmt(E, S, [&](const Stmt *P, const Stmt *Child) {
    if (P == Stop && !isa<CompoundStmt>(P))
      return false;
    if (const auto *I = dyn_cast<IfStmt>(P)) {
      if (Child == I->getThen() || Child == I->getElse())
        Out.push_back({I->getCond(), Child == I->getThen(), {Child}});
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (Child == CO->getTrueExpr() || Child == CO->getFalseExpr())
        Out.push_back({CO->getCond(), Child == CO->getTrueExpr(), {Child}});
    } else if (const auto *B = dyn_cast<BinaryOperator>(P)) {
      if (B->isLogicalOp() && Child == B->getRHS())
        Out.push_back({B->getLHS(), B->getOpcode() == BO_LAnd, {Child}});
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (Child == Sw->getBody())
        Out.push_back({Sw->getCond(), true, {Child}});
    } else if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      // `if (step % N != 0) continue;` guards everything after it.
      for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
        if (*It == Child)
          break;
        const auto *I = dyn_cast<IfStmt>(*It);
        if (!I || !(alwaysLeaves(I->getThen()) || alwaysLeaves(I->getElse())))
          continue;
        Guard G{I->getCond(), !alwaysLeaves(I->getThen()), {}};
        for (auto Rest = std::next(It); Rest != Block->body_end(); ++Rest)
          G.Region.push_back(*Rest);
        Out.push_back(std::move(G));
      }
    }
    // A function body: its early returns were examined above.
    return P != Stop;
  });
  return Out;
}

bool guardedPeriodically(Engine &E, const Stmt *S, const Stmt *Stop,
                         const VaryContext &C) {
  for (const Guard &G : guardsBetween(E, S, Stop))
    if (periodicCond(E, G.Cond, G.Region, C, 0, G.WhenTrue))
      return true;
  return false;
}

} // namespace loops

using namespace loops;

bool variesPerIteration(Engine &E, const Expr *X, const Stmt *Loop) {
  VaryContext C{Loop, nullptr, nullptr, nullptr};
  return varies(E, X, C, 0);
}

bool variesPerIteration(Engine &E, const Expr *X, const StepContext &Ctx) {
  // One context per call on the way down; each judges its parameters by
  // the arguments of the call above it.
  llvm::SmallVector<VaryContext, 4> Chain;
  Chain.reserve(Ctx.Via.size() + 1);
  Chain.push_back({Ctx.Loop, nullptr, nullptr, nullptr});
  for (const Stmt *Site : Ctx.Via) {
    const auto *Call = dyn_cast<CallExpr>(Site);
    const FunctionDecl *Callee =
        Call ? userDefinition(E, E.resolveCallee(Call)) : nullptr;
    if (!Callee)
      return true; // A lambda expression or unknown call: cannot tell.
    Chain.push_back({nullptr, Callee, Call, &Chain.back()});
  }
  return varies(E, X, Chain.back(), 0);
}

bool Engine::isPeriodicallyGuarded(const Stmt *S, const Stmt *Loop) {
  if (!S || !Loop)
    return false;
  VaryContext C{Loop, nullptr, nullptr, nullptr};
  return guardedPeriodically(*this, S, Loop, C);
}

} // namespace distlint
