//===- ObjectFlow.cpp -----------------------------------------------------===//
#include "engine/objects/ObjectFlow.h"
#include "engine/Construction.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/loops/Loops.h"
#include "engine/solver/Solver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace distlint {

namespace {

/// Does element statement S enclose (or equal) At, by source range?
bool encloses(const SourceManager &SM, const Stmt *S, const Stmt *At) {
  if (S == At)
    return true;
  SourceRange R = S->getSourceRange(), A = At->getSourceRange();
  if (R.isInvalid() || A.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(A.getBegin(), R.getBegin()) &&
         !SM.isBeforeInTranslationUnit(R.getEnd(), A.getEnd()) &&
         S->getStmtClass() != Stmt::DeclRefExprClass;
}

/// Is parameter I of a function template a forwarding reference (T&&)?
bool isForwardingParam(const FunctionDecl *FD, unsigned I) {
  const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
  if (!Pattern || I >= Pattern->getNumParams())
    return false;
  QualType T = Pattern->getParamDecl(I)->getType();
  if (const auto *R = T->getAs<RValueReferenceType>())
    return R->getPointeeType()->isTemplateTypeParmType() ||
           R->getPointeeType()->getAs<PackExpansionType>();
  return false;
}

bool isReferenceOrPointer(QualType T) {
  return T->isReferenceType() || isPointerLike(T);
}

} // namespace

VarSet aliasesOf(const VarDecl *Root, const FunctionDecl *FD) {
  VarSet Set;
  Set.insert(Root);
  if (!FD || !FD->getBody())
    return Set;
  llvm::SmallVector<const VarDecl *, 16> Vars;
  collectVarDecls(FD->getBody(), Vars);
  for (int Round = 0; Round < 3; ++Round) {
    bool Grew = false;
    for (const VarDecl *V : Vars) {
      if (Set.count(V) || !V->getInit() || !isReferenceOrPointer(V->getType()))
        continue;
      if (const VarDecl *From = designatedVar(V->getInit());
          From && Set.count(From)) {
        Set.insert(V);
        Grew = true;
      }
    }
    if (!Grew)
      break;
  }
  return Set;
}

bool isFieldAssignment(const Stmt *S, const FieldDecl *&Field,
                       const Expr *&Object, const Expr *&Value) {
  const Expr *LHS = nullptr, *RHS = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->getOpcode() == BO_Assign) {
    LHS = B->getLHS();
    RHS = B->getRHS();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    LHS = OC->getArg(0);
    RHS = OC->getArg(1);
  } else {
    return false;
  }
  const auto *M = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  if (!M)
    return false;
  Field = dyn_cast<FieldDecl>(M->getMemberDecl());
  if (!Field)
    return false;
  Object = M->getBase();
  Value = RHS;
  return true;
}

namespace {

/// "The fact holds" as a forward must-problem for the solver: every block
/// starts optimistic (holds) and a merge is the conjunction of the
/// predecessors, so the solver reaches the greatest fixpoint.
struct MustHappenProblem {
  using Element = uint8_t; // bool, addressable in the solver's vectors
  static constexpr solver::Direction Dir = solver::Direction::Forward;
  const MustHappenQuery &Q;

  uint8_t bottom() const { return true; }
  uint8_t boundary() const { return Q.EntryHolds; }
  uint8_t merge(const CFGBlock *,
                llvm::ArrayRef<solver::Neighbour<uint8_t>> Preds) const {
    if (Preds.empty())
      return false; // Not reached from the entry.
    for (const auto &P : Preds)
      if (!*P.Out)
        return false;
    return true;
  }
  bool step(const Stmt *S, bool State) const {
    if (Q.IsReset && Q.IsReset(S))
      State = false;
    if (Q.IsEvent(S))
      State = true;
    return State;
  }
  void transfer(const CFGBlock *B, uint8_t &State) const {
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        State = step(CS->getStmt(), State);
    if (Q.ResetAfter && Q.ResetAfter(B))
      State = false;
  }
  bool equal(uint8_t A, uint8_t B) const { return A == B; }
  void widen(const CFGBlock *, uint8_t, uint8_t &) const {} // Finite height.
};

} // namespace

std::optional<bool> holdsOnEveryPath(Engine &E, const FunctionDecl *FD,
                                     const Stmt *At, const MustHappenQuery &Q) {
  FactsRef Facts = E.facts(FD);
  if (!Facts)
    return std::nullopt;
  const SourceManager &SM = E.context().getSourceManager();
  CFG &G = Facts->cfg();
  MustHappenProblem Problem{Q};
  const auto Sol = solver::solve(G, Problem);
  // In of the queried block, merged like the solver does; a predecessor
  // the solver never visited (not reached from the entry) keeps bottom.
  auto In = [&](const CFGBlock *B) -> bool {
    if (B == &G.getEntry())
      return Q.EntryHolds;
    llvm::SmallVector<solver::Neighbour<uint8_t>, 4> Preds;
    for (const CFGBlock *P : B->preds())
      if (P)
        Preds.push_back({P, &Sol.out(P)});
    return Problem.merge(B, Preds);
  };
  if (!At)
    return In(&G.getExit());
  const CFGBlock *B = Facts->blockOf(At);
  if (!B)
    return std::nullopt;
  bool State = In(B);
  for (const CFGElement &El : *B) {
    auto CS = El.getAs<CFGStmt>();
    if (!CS)
      continue;
    if (encloses(SM, CS->getStmt(), At))
      break;
    State = Problem.step(CS->getStmt(), State);
  }
  return State;
}

namespace {

Tri fieldSetImpl(Engine &E, const VarDecl *Root, const FunctionDecl *FD,
                 const Stmt *At, const FieldQuery &Q, int Depth,
                 bool AskCallers);

/// Does a call that receives the object (through one of Aliases) set the
/// field on every path through the callee?
bool callSetsField(Engine &E, const Stmt *S, const VarSet &Aliases,
                   const FieldQuery &Q, int Depth) {
  const FunctionDecl *Callee = nullptr;
  llvm::SmallVector<const Expr *, 6> Args;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    Callee = E.resolveCallee(Call);
    if (!Callee)
      return false;
    for (unsigned I = 0; I < Callee->getNumParams(); ++I)
      Args.push_back(callArgument(Call, Callee, I));
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    Callee = CE->getConstructor();
    if (!Callee || cast<CXXConstructorDecl>(Callee)->isCopyOrMoveConstructor())
      return false;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      Args.push_back(CE->getArg(I));
  } else {
    return false;
  }
  const FunctionDecl *Def = Callee->getDefinition();
  bool User = Def && Def->getBody() && isAnalyzedDecl(E, Def);
  for (unsigned I = 0; I < Args.size() && I < Callee->getNumParams(); ++I) {
    if (!Args[I])
      continue;
    const VarDecl *V = designatedVar(Args[I]);
    if (!V || !Aliases.count(V))
      continue;
    QualType PT = Callee->getParamDecl(I)->getType();
    if (!isReferenceOrPointer(PT))
      continue; // A copy: the helper changes its own object.
    if (User) {
      if (fieldSetImpl(E, Def->getParamDecl(I), Def, nullptr, Q, Depth + 1,
                       false) == Tri::Yes)
        return true;
      continue;
    }
    // Library code we cannot see: a non-const reference or pointer may set
    // it, unless the tables know the function. std::move and forwarding
    // factories (make_shared(Args&&...)) pass the object on instead.
    if (Callee->getBuiltinID() || isForwardingParam(Callee, I))
      continue;
    bool ConstView =
        PT->isReferenceType()
            ? PT->getPointeeType().isConstQualified()
            : (PT->isPointerType() && PT->getPointeeType().isConstQualified());
    if (!ConstView && E.api().lookup(Callee).empty() &&
        !isa<CXXConstructorDecl>(Callee))
      return true;
  }
  return false;
}

Tri fieldSetImpl(Engine &E, const VarDecl *Root, const FunctionDecl *FD,
                 const Stmt *At, const FieldQuery &Q, int Depth,
                 bool AskCallers) {
  if (!Root || !FD || Depth > 4)
    return Tri::Unknown;
  if (!Root->hasLocalStorage() && !isa<ParmVarDecl>(Root))
    return Tri::Unknown; // Globals: set anywhere.
  VarSet Aliases = aliasesOf(Root, FD);

  bool EntryHolds = false;
  Tri FromCallers = Tri::No;
  if (const auto *P = dyn_cast<ParmVarDecl>(Root); P && AskCallers) {
    auto Sites = callSitesOf(E, FD);
    if (Sites.empty()) {
      FromCallers = Tri::Unknown;
    } else {
      FromCallers = Tri::Yes;
      for (const CallExpr *Call : Sites) {
        const Expr *Arg = callArgument(Call, FD, P->getFunctionScopeIndex());
        Tri R;
        if (!Arg)
          R = Tri::No;
        else if (const VarDecl *V = designatedVar(Arg))
          R = fieldSetImpl(E, V, E.enclosingFunction(Call), Call, Q, Depth + 1,
                           true);
        else
          R = Q.CreationSets(Arg) ? Tri::Yes : Tri::No;
        if (R == Tri::No) {
          FromCallers = Tri::No;
          break;
        }
        if (R == Tri::Unknown)
          FromCallers = Tri::Unknown;
      }
    }
    EntryHolds = FromCallers == Tri::Yes;
  }

  auto IsReset = [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      return llvm::is_contained(DS->decls(), Root);
    const FieldDecl *F;
    const Expr *Obj, *Val;
    if (isFieldAssignment(S, F, Obj, Val))
      return false;
    // Re-seating the root itself: `opts = Options::create();`.
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign)
      return designatedVar(B->getLHS()) == Root &&
             isa<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      return isa<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()) &&
             designatedVar(OC->getArg(0)) == Root;
    return false;
  };
  auto IsEvent = [&](const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (!llvm::is_contained(DS->decls(), Root))
        return false;
      return Root->getInit() && Q.CreationSets(Root->getInit());
    }
    const FieldDecl *F;
    const Expr *Obj, *Val;
    if (isFieldAssignment(S, F, Obj, Val)) {
      const VarDecl *V = designatedVar(Obj);
      return V && Aliases.count(V) && Q.IsField(F);
    }
    if (IsReset(S)) {
      const Expr *Val = nullptr;
      if (const auto *B = dyn_cast<BinaryOperator>(S))
        Val = B->getRHS();
      else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S))
        Val = OC->getArg(1);
      return Val && Q.CreationSets(Val);
    }
    return callSetsField(E, S, Aliases, Q, Depth);
  };
  // Parameters hold on entry what their callers established.
  MustHappenQuery MQ;
  MQ.IsEvent = IsEvent;
  MQ.IsReset = IsReset;
  MQ.EntryHolds = EntryHolds;
  std::optional<bool> Holds = holdsOnEveryPath(E, FD, At, MQ);
  if (!Holds)
    return Tri::Unknown;
  if (*Holds)
    return Tri::Yes;
  if (isa<ParmVarDecl>(Root) && AskCallers && FromCallers == Tri::Unknown)
    return Tri::Unknown;
  return Tri::No;
}

} // namespace

Tri fieldSetOnEveryPath(Engine &E, const VarDecl *Root, const Stmt *At,
                        const FieldQuery &Q) {
  const FunctionDecl *FD = E.enclosingFunction(At);
  return fieldSetImpl(E, Root, FD, At, Q, 0, true);
}

} // namespace distlint
