//===- Loops.cpp - Loop questions of the engine ---------------------------===//
//
// Reachability of API roles through user functions (memoized per function
// and role), loops enclosing a statement, training / step loops, periodic
// guards, and the "runs every training step" context used by rules.
//
//===----------------------------------------------------------------------===//
#include "Loops.h"
#include "EngineCache.h"
#include "UserCode.h"
#include "Values.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace distlint {

namespace {

using RoleMask = uint64_t;
RoleMask bit(api::Role R) { return RoleMask(1) << unsigned(R); }

/// Direct facts about one user function's body.
struct CallsOfFunction {
  RoleMask Direct = 0;
  llvm::SmallVector<const FunctionDecl *, 8> UserCallees;
};

/// A function whose body runs every step, reached from a call site.
struct StepCaller {
  const Stmt *Site; ///< Call (or lambda expression) in the caller.
  StepContext Context;
};

struct LoopState : EngineExtension {
  explicit LoopState(Engine &E) : E(E) {}
  Engine &E;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<CallsOfFunction>> Calls;
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>, bool> Reach;
  llvm::DenseMap<const Stmt *, bool> Training, Step;
  /// 0 = in progress, 1 = no, 2 = yes.
  llvm::DenseMap<const FunctionDecl *, int> StepsDirectly;
  bool CallSitesBuilt = false;
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Sites;
  llvm::DenseMap<const FunctionDecl *, std::vector<StepCaller>> Callers;
  llvm::DenseSet<const FunctionDecl *> CallersInProgress;
};

LoopState &state(Engine &E) { return engineExtension<LoopState>(E); }

/// The definition of a user function, or null for library code.
const FunctionDecl *userDefinition(Engine &E, const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || !isAnalyzedDecl(E, Def))
    return nullptr;
  return Def;
}

void walkCalls(
    Engine &E, const Stmt *S,
    llvm::function_ref<void(const Expr *, const FunctionDecl *)> Fn) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Fn(Call, E.resolveCallee(Call));
  else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
    Fn(Ctor, Ctor->getConstructor());
  for (const Stmt *Child : S->children())
    walkCalls(E, Child, Fn);
}

const CallsOfFunction &callsOf(Engine &E, const FunctionDecl *Def) {
  auto &Slot = state(E).Calls[Def];
  if (Slot)
    return *Slot;
  auto Facts = std::make_unique<CallsOfFunction>();
  walkCalls(E, Def->getBody(), [&](const Expr *, const FunctionDecl *Callee) {
    if (!Callee)
      return;
    for (const api::ApiEntry *Row : E.api().lookup(Callee))
      Facts->Direct |= bit(Row->TheRole);
    if (const FunctionDecl *U = userDefinition(E, Callee))
      if (U != Def && !llvm::is_contained(Facts->UserCallees, U))
        Facts->UserCallees.push_back(U);
  });
  // Constructors run their member initializers too.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      walkCalls(E, Init->getInit(),
                [&](const Expr *, const FunctionDecl *Callee) {
                  if (!Callee)
                    return;
                  for (const api::ApiEntry *Row : E.api().lookup(Callee))
                    Facts->Direct |= bit(Row->TheRole);
                  if (const FunctionDecl *U = userDefinition(E, Callee))
                    if (U != Def)
                      Facts->UserCallees.push_back(U);
                });
  Slot = std::move(Facts);
  return *Slot;
}

bool callReaches(Engine &E, const FunctionDecl *Callee, api::Role R) {
  if (!Callee)
    return false;
  if (E.api().has(Callee, R))
    return true;
  if (const FunctionDecl *U = userDefinition(E, Callee))
    return E.functionReaches(U, R);
  return false;
}

/// The parts of a loop that run on every iteration.
llvm::SmallVector<const Stmt *, 4> iterationParts(const Stmt *Loop) {
  llvm::SmallVector<const Stmt *, 4> Parts;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Parts = {F->getCond(), F->getInc(), F->getBody(),
             F->getConditionVariableDeclStmt()};
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Parts = {W->getCond(), W->getBody(), W->getConditionVariableDeclStmt()};
  else if (const auto *D = dyn_cast<DoStmt>(Loop))
    Parts = {D->getCond(), D->getBody()};
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Parts = {R->getCond(), R->getInc(), R->getLoopVarStmt(), R->getBody()};
  llvm::erase(Parts, nullptr);
  return Parts;
}

bool isFunctionBoundary(const DynTypedNode &N) {
  return N.get<FunctionDecl>() || N.get<LambdaExpr>() || N.get<BlockDecl>() ||
         N.get<CXXRecordDecl>() || N.get<ObjCMethodDecl>();
}

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

//--- Periodic guards ----------------------------------------------------===//

/// The context in which "does this value change between runs" is asked:
/// iterations of a loop, or calls of a function from a call site whose
/// arguments are judged in the outer context.
struct VaryContext {
  const Stmt *Loop = nullptr;
  const FunctionDecl *Callee = nullptr;
  const CallExpr *Call = nullptr;
  const VaryContext *Outer = nullptr;
};

bool varies(Engine &E, const Expr *X, const VaryContext &C, int Depth);

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

struct Guard {
  const Expr *Cond;
  /// The guarded code runs when Cond is true (false: when it is false).
  bool WhenTrue;
  /// Statements that run only when the guard lets them.
  llvm::SmallVector<const Stmt *, 4> Region;
};

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

/// Conditions between S and Stop (a loop, or the function body) that decide
/// whether S runs.
/// Calls Visit(Parent, Child) for each statement enclosing S, innermost
/// first, up to the function boundary; Child is the statement below Parent
/// on the path to S. Stops when Visit returns false.
static void forEachEnclosingStmt(
    Engine &E, const Stmt *S,
    llvm::function_ref<bool(const Stmt *Parent, const Stmt *Child)> Visit) {
  ASTContext &Ctx = E.context();
  DynTypedNode Node = DynTypedNode::create(*S);
  const Stmt *Child = S;
  for (int Depth = 0; Depth < 512; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return;
    Node = Parents[0];
    if (isFunctionBoundary(Node))
      return;
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue;
    if (!Visit(P, Child))
      return;
    Child = P;
  }
}

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

/// Does one call of Def run a training step outside its own training
/// loops (train_step() rather than train_epoch())?
bool stepsDirectly(Engine &E, const FunctionDecl *Def);

bool stepIn(Engine &E, const Stmt *S, const Stmt *Loop) {
  if (!S)
    return false;
  if (S != Loop && isLoopStmt(S) && E.isTrainingLoop(S))
    return false; // Its iterations are the steps, not ours.
  if (isa<LambdaExpr>(S))
    return false; // Judged where it is called.
  const FunctionDecl *Callee = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Callee = E.resolveCallee(Call);
  else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(S))
    Callee = Ctor->getConstructor();
  if (Callee) {
    if (E.api().has(Callee, api::Role::TrainingStep) ||
        E.api().has(Callee, api::Role::Collective))
      return true;
    if (const FunctionDecl *U = userDefinition(E, Callee))
      if (stepsDirectly(E, U))
        return true;
  }
  for (const Stmt *Child : S->children())
    if (stepIn(E, Child, Loop))
      return true;
  return false;
}

bool stepsDirectly(Engine &E, const FunctionDecl *Def) {
  auto &Memo = state(E).StepsDirectly;
  auto It = Memo.find(Def);
  if (It != Memo.end())
    return It->second == 2;
  Memo[Def] = 0;
  bool Result = stepIn(E, Def->getBody(), nullptr);
  state(E).StepsDirectly[Def] = Result ? 2 : 1;
  return Result;
}

std::optional<StepContext> runsEveryStepImpl(Engine &E, const Stmt *S,
                                             int Depth);

/// Sites from which a call of Def runs every step.
const std::vector<StepCaller> &stepCallers(Engine &E, const FunctionDecl *Def,
                                           int Depth) {
  LoopState &St = state(E);
  auto It = St.Callers.find(Def);
  if (It != St.Callers.end())
    return It->second;
  static const std::vector<StepCaller> None;
  if (Depth > 6 || !St.CallersInProgress.insert(Def).second)
    return None;
  std::vector<StepCaller> Found;
  for (const CallExpr *Call : callSitesOf(E, Def))
    if (auto Ctx = runsEveryStepImpl(E, Call, Depth + 1))
      Found.push_back({Call, *Ctx});
  // A lambda passed to an algorithm runs where it is written.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
      MD && MD->getParent()->isLambda()) {
    for (const DynTypedNode &P : E.context().getParents(*MD->getParent()))
      if (const auto *Lambda = P.get<LambdaExpr>())
        if (auto Ctx = runsEveryStepImpl(E, Lambda, Depth + 1))
          Found.push_back({Lambda, *Ctx});
  }
  St.CallersInProgress.erase(Def);
  return St.Callers[Def] = std::move(Found);
}

std::optional<StepContext> runsEveryStepImpl(Engine &E, const Stmt *S,
                                             int Depth) {
  for (const Stmt *Loop : enclosingLoops(E, S)) {
    if (isStepLoop(E, Loop)) {
      VaryContext C{Loop, nullptr, nullptr, nullptr};
      if (guardedPeriodically(E, S, Loop, C))
        return std::nullopt;
      return StepContext{Loop, {}};
    }
    if (E.isTrainingLoop(Loop))
      return std::nullopt; // Once per epoch, not per step.
  }
  const FunctionDecl *FD = E.enclosingFunction(S);
  const FunctionDecl *Def = userDefinition(E, FD);
  if (!Def)
    return std::nullopt;
  for (const StepCaller &Caller : stepCallers(E, Def, Depth)) {
    VaryContext Outer{Caller.Context.Loop, nullptr, nullptr, nullptr};
    VaryContext Inner{nullptr, Def, dyn_cast<CallExpr>(Caller.Site), &Outer};
    if (guardedPeriodically(E, S, Def->getBody(), Inner))
      continue;
    StepContext Result = Caller.Context;
    Result.Via.push_back(Caller.Site);
    return Result;
  }
  return std::nullopt;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

void forEachCallIn(
    Engine &E, const Stmt *S,
    llvm::function_ref<void(const Expr *, const FunctionDecl *)> Fn) {
  walkCalls(E, S, Fn);
}

llvm::SmallVector<const Stmt *, 4> enclosingLoops(Engine &E, const Stmt *S) {
  llvm::SmallVector<const Stmt *, 4> Out;
  if (!S)
    return Out;
  forEachEnclosingStmt(E, S, [&](const Stmt *P, const Stmt *Child) {
    if (isLoopStmt(P) && llvm::is_contained(iterationParts(P), Child))
      Out.push_back(P);
    return true;
  });
  return Out;
}

bool runsInIterationOf(Engine &E, const Stmt *S, const Stmt *Loop) {
  return llvm::is_contained(enclosingLoops(E, S), Loop);
}

bool isStepLoop(Engine &E, const Stmt *Loop) {
  auto &Memo = state(E).Step;
  auto It = Memo.find(Loop);
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  if (E.isTrainingLoop(Loop))
    for (const Stmt *Part : iterationParts(Loop))
      if (stepIn(E, Part, Loop)) {
        Result = true;
        break;
      }
  return state(E).Step[Loop] = Result;
}

bool variesPerIteration(Engine &E, const Expr *X, const Stmt *Loop) {
  VaryContext C{Loop, nullptr, nullptr, nullptr};
  return varies(E, X, C, 0);
}

std::optional<StepContext> runsEveryStep(Engine &E, const Stmt *S) {
  return runsEveryStepImpl(E, S, 0);
}

llvm::ArrayRef<const CallExpr *> callSitesOf(Engine &E,
                                             const FunctionDecl *FD) {
  LoopState &St = state(E);
  if (!St.CallSitesBuilt) {
    St.CallSitesBuilt = true;
    for (const FunctionDecl *F : E.userFunctions())
      walkCalls(E, F->getBody(),
                [&](const Expr *X, const FunctionDecl *Callee) {
                  const auto *Call = dyn_cast<CallExpr>(X);
                  if (!Call || !Callee)
                    return;
                  if (const FunctionDecl *Def = userDefinition(E, Callee))
                    St.Sites[Def].push_back(Call);
                });
  }
  const FunctionDecl *Def = userDefinition(E, FD);
  auto It = St.Sites.find(Def);
  if (It == St.Sites.end())
    return {};
  return It->second;
}

bool Engine::functionReaches(const FunctionDecl *FD, api::Role R) {
  const FunctionDecl *Root = userDefinition(*this, FD);
  if (!Root)
    return false;
  LoopState &St = state(*this);
  auto Key = std::make_pair(Root, unsigned(R));
  auto It = St.Reach.find(Key);
  if (It != St.Reach.end())
    return It->second;
  // Breadth-first over the call graph; recursion is a cycle we visit once.
  llvm::SmallVector<const FunctionDecl *, 16> Work{Root};
  llvm::DenseSet<const FunctionDecl *> Seen{Root};
  bool Found = false;
  while (!Work.empty() && !Found) {
    const FunctionDecl *F = Work.pop_back_val();
    auto Known = St.Reach.find({F, unsigned(R)});
    if (Known != St.Reach.end() && F != Root) {
      if (Known->second)
        Found = true;
      continue; // Known false: its whole closure is false.
    }
    const CallsOfFunction &Facts = callsOf(*this, F);
    if (Facts.Direct & bit(R)) {
      Found = true;
      break;
    }
    for (const FunctionDecl *Callee : Facts.UserCallees)
      if (Seen.insert(Callee).second)
        Work.push_back(Callee);
  }
  if (Found) {
    St.Reach[Key] = true;
  } else {
    // Everything reachable from Root does not reach R either.
    for (const FunctionDecl *F : Seen)
      St.Reach[{F, unsigned(R)}] = false;
  }
  return Found;
}

bool Engine::reaches(const Stmt *S, api::Role R) {
  bool Found = false;
  walkCalls(*this, S, [&](const Expr *, const FunctionDecl *Callee) {
    if (!Found && callReaches(*this, Callee, R))
      Found = true;
  });
  return Found;
}

const Stmt *Engine::enclosingLoop(const Stmt *S) {
  auto Loops = enclosingLoops(*this, S);
  return Loops.empty() ? nullptr : Loops.front();
}

bool Engine::isTrainingLoop(const Stmt *Loop) {
  if (!isLoopStmt(Loop))
    return false;
  auto &Memo = state(*this).Training;
  auto It = Memo.find(Loop);
  if (It != Memo.end())
    return It->second;
  bool Result = false;
  for (const Stmt *Part : iterationParts(Loop))
    if (reaches(Part, api::Role::TrainingStep) ||
        reaches(Part, api::Role::Collective)) {
      Result = true;
      break;
    }
  return state(*this).Training[Loop] = Result;
}

bool Engine::isPeriodicallyGuarded(const Stmt *S, const Stmt *Loop) {
  if (!S || !Loop)
    return false;
  VaryContext C{Loop, nullptr, nullptr, nullptr};
  return guardedPeriodically(*this, S, Loop, C);
}

} // namespace distlint
