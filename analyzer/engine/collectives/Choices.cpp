//===- Choices.cpp - What names a choice in a collective sequence ---------===//
//
// A branch or a loop is a choice in the sequence tree; two sides make the
// same choice when its key is the same: the condition's structure with the
// loop's induction variable abstracted (choiceKey), a counted loop over a
// uniform bound (countedUniformLoop), and loops that exchange once with
// each peer.
//
//===----------------------------------------------------------------------===//
#include "engine/collectives/SequenceBuilder.h"

#include "engine/Engine.h"
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/collectives/RankConditions.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/Hashing.h"

using namespace clang;

namespace distlint {
namespace collectives {

namespace {

/// Structure of a condition, with the loop's own induction variables
/// abstracted, so `for (int i = 0; i < n; ++i)` and `for (int j = 0; j < n;
/// ++j)` run the same number of times. With Names, a variable that holds a
/// named value there (UniformityAnswer::ValueName) is hashed by that name,
/// so `r < rounds` in two arms that each set `rounds = parse_steps(argc)`
/// hash alike.
void hashStmt(const Stmt *S,
              const llvm::SmallPtrSetImpl<const Decl *> &Induction,
              llvm::hash_code &H, Engine *Names = nullptr) {
  if (!S)
    return;
  if (const auto *X = dyn_cast<Expr>(S)) {
    const Expr *P = X->IgnoreParenImpCasts();
    if (P != X)
      return hashStmt(P, Induction, H, Names);
  }
  H = llvm::hash_combine(H, S->getStmtClass());
  if (const auto *DR = dyn_cast<DeclRefExpr>(S);
      DR && Names && isa<VarDecl>(DR->getDecl()) &&
      !Induction.count(DR->getDecl()))
    if (uint64_t Name = Names->uniformity(DR).ValueName) {
      H = llvm::hash_combine(H, Name);
      return;
    }
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    H = llvm::hash_combine(
        H, Induction.count(DR->getDecl())
               ? (const void *)nullptr
               : (const void *)DR->getDecl()->getCanonicalDecl());
  else if (const auto *IL = dyn_cast<IntegerLiteral>(S))
    H = llvm::hash_combine(H, IL->getValue().getLimitedValue());
  else if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(S))
    H = llvm::hash_combine(H, BL->getValue());
  else if (const auto *CL = dyn_cast<CharacterLiteral>(S))
    H = llvm::hash_combine(H, CL->getValue());
  else if (const auto *SL = dyn_cast<StringLiteral>(S))
    H = llvm::hash_combine(H, SL->getBytes());
  else if (const auto *BO = dyn_cast<BinaryOperator>(S))
    H = llvm::hash_combine(H, BO->getOpcode());
  else if (const auto *UO = dyn_cast<UnaryOperator>(S))
    H = llvm::hash_combine(H, UO->getOpcode());
  else if (const auto *ME = dyn_cast<MemberExpr>(S))
    H = llvm::hash_combine(H, (const void *)ME->getMemberDecl());
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S))
    H = llvm::hash_combine(H, OC->getOperator());
  else if (const auto *CE = dyn_cast<CallExpr>(S))
    H = llvm::hash_combine(H, (const void *)CE->getDirectCallee());
  for (const Stmt *Child : S->children())
    hashStmt(Child, Induction, H, Names);
}
/// Does S write V (assignment, increment, address taken), or leave the loop
/// it is the body of early (break outside nested loops and switches,
/// return, goto, throw)?
bool writesOrLeaves(const Stmt *S, const VarDecl *V, bool Nested) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr>(S))
    return true;
  if (isa<BreakStmt>(S) && !Nested)
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S);
      B && B->isAssignmentOp() && designatedVar(B->getLHS()) == V)
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
      designatedVar(U->getSubExpr()) == V)
    return true;
  bool Inner =
      Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    if (writesOrLeaves(Child, V, Inner))
      return true;
  return false;
}

bool refersTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S); DR && DR->getDecl() == V)
    return true;
  for (const Stmt *Child : S->children())
    if (refersTo(Child, V))
      return true;
  return false;
}

} // namespace

namespace {

/// A counted loop `for (i = Start; i <op> Bound; ++i)` (or `i += C`, C
/// uniform), i an integer written nowhere in the body.
struct CountedFor {
  const VarDecl *V = nullptr;
  const Expr *Start = nullptr;
  const Expr *Bound = nullptr;
};

std::optional<CountedFor> countedFor(Engine &E, const ForStmt *F) {
  CountedFor C;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl())
      if ((C.V = dyn_cast<VarDecl>(DS->getSingleDecl())))
        C.Start = C.V->getInit();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign) {
    C.V = designatedVar(B->getLHS());
    C.Start = B->getRHS();
  }
  if (!C.V || !C.Start || !C.V->getType()->isIntegerType())
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !(Cond->isRelationalOp() || Cond->isEqualityOp()))
    return std::nullopt;
  const Expr *L = Cond->getLHS()->IgnoreParenImpCasts();
  const Expr *R = Cond->getRHS()->IgnoreParenImpCasts();
  const VarDecl *V = C.V;
  C.Bound = designatedVar(L) == V && isa<DeclRefExpr>(L)   ? R
            : designatedVar(R) == V && isa<DeclRefExpr>(R) ? L
                                                           : nullptr;
  if (!C.Bound || refersTo(C.Bound, V))
    return std::nullopt;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || designatedVar(U->getSubExpr()) != V)
      return std::nullopt;
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if ((CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign) ||
        designatedVar(CA->getLHS()) != V || refersTo(CA->getRHS(), V) ||
        !E.uniformity(CA->getRHS()).Uniform)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (writesOrLeaves(F->getBody(), V, /*Nested=*/false))
    return std::nullopt;
  return C;
}

/// Does the loop read a variable of its bound that its body may write?
bool boundWrittenIn(Engine &E, const Expr *Bound, const ForStmt *F) {
  if (const auto *DR = dyn_cast<DeclRefExpr>(Bound))
    if (const auto *VD = dyn_cast<VarDecl>(DR->getDecl()))
      return isWrittenIn(E, VD, F->getBody()) ||
             isWrittenIn(E, VD, F->getInc());
  for (const Stmt *Child : Bound->children())
    if (const auto *X = dyn_cast_or_null<Expr>(Child);
        X && boundWrittenIn(E, X, F))
      return true;
  return false;
}

} // namespace

const VarDecl *countedUniformLoop(Engine &E, const ForStmt *F) {
  std::optional<CountedFor> C = countedFor(E, F);
  if (!C || !E.uniformity(C->Start).Uniform || !E.uniformity(C->Bound).Uniform)
    return nullptr;
  return C->V;
}

const VarDecl *uniformTripCount(Engine &E, const ForStmt *F,
                                uint64_t CallerParams) {
  if (!CallerParams)
    if (const VarDecl *V = countedUniformLoop(E, F))
      return V;
  std::optional<CountedFor> C = countedFor(E, F);
  auto Uniform = [&](const Expr *X) {
    UniformityAnswer A = E.uniformity(X);
    return A.Uniform && !(A.Params & CallerParams);
  };
  if (!C)
    return nullptr;
  if (CallerParams && Uniform(C->Start) && Uniform(C->Bound))
    return C->V;
  return uniformDistance(C->Bound, C->Start, Uniform) &&
                 !boundWrittenIn(E, C->Bound, F)
             ? C->V
             : nullptr;
}

namespace {
/// The iterations of a counted loop (countedUniformLoop) whose start, bound
/// and step are integer constants, counted up to a bound.
std::optional<int64_t> constantTripCount(Engine &E, const ForStmt *F,
                                         const VarDecl *V, const Expr *Start) {
  const ASTContext &Ctx = E.context();
  auto Constant = [&](const Expr *X) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (X && !X->isValueDependent() && X->EvaluateAsInt(R, Ctx))
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  };
  const auto *Cond = cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  bool VarLeft = designatedVar(Cond->getLHS()->IgnoreParenImpCasts()) == V;
  auto From = Constant(Start);
  auto Bound = Constant(VarLeft ? Cond->getRHS() : Cond->getLHS());
  std::optional<int64_t> Step;
  const Expr *Inc = F->getInc()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc))
    Step = U->isIncrementOp() ? 1 : -1;
  else if (const auto *C = dyn_cast<CompoundAssignOperator>(Inc))
    if (auto By = Constant(C->getRHS()))
      Step = C->getOpcode() == BO_AddAssign ? *By : -*By;
  if (!From || !Bound || !Step)
    return std::nullopt;
  auto Holds = [&](int64_t I) {
    int64_t L = VarLeft ? I : *Bound, R = VarLeft ? *Bound : I;
    switch (Cond->getOpcode()) {
    case BO_LT:
      return L < R;
    case BO_LE:
      return L <= R;
    case BO_GT:
      return L > R;
    case BO_GE:
      return L >= R;
    case BO_NE:
      return L != R;
    case BO_EQ:
      return L == R;
    default:
      return false;
    }
  };
  constexpr int64_t Limit = 1 << 16;
  int64_t Trips = 0;
  for (int64_t I = *From; Holds(I); I += *Step)
    if (++Trips > Limit)
      return std::nullopt;
  return Trips;
}
/// The start of a counted loop: its counter's initializer or the value
/// its init statement assigns.
const Expr *loopStart(const ForStmt *F, const VarDecl *V) {
  return isa<DeclStmt>(F->getInit())
             ? V->getInit()
             : cast<BinaryOperator>(F->getInit())->getRHS();
}

/// A counted loop up from a constant to a bound that grows with the world
/// size (`for (p = 1; p < size; ++p)`) runs at least once wherever ranks
/// can disagree: with two ranks or more.
bool runsOnceWithTwoRanks(Engine &E, const ForStmt *F, const VarDecl *V) {
  Expr::EvalResult Start;
  const Expr *S = loopStart(F, V);
  if (!S || S->isValueDependent() || !S->EvaluateAsInt(Start, E.context()))
    return false;
  const auto *Cond = cast<BinaryOperator>(F->getCond()->IgnoreParenImpCasts());
  const auto *U = dyn_cast<UnaryOperator>(F->getInc()->IgnoreParenImpCasts());
  if (!U || !U->isIncrementOp() ||
      designatedVar(Cond->getLHS()->IgnoreParenImpCasts()) != V ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
    return false;
  auto Lowest = E.uniformity(Cond->getRHS()).AtLeast;
  if (!Lowest || Lowest->PerWorld < 0)
    return false;
  int64_t From = Start.Val.getInt().getExtValue();
  int64_t Bound = 2 * Lowest->PerWorld + Lowest->Constant;
  return Cond->getOpcode() == BO_LT ? From < Bound : From <= Bound;
}

/// Does every token of the tree exchange with the peer that counter V
/// names (a point-to-point call whose peer argument reads V), with at
/// least one token and no other kind of node than choices around them?
bool exchangesWithCounterPeer(const NodeRef &N, const VarDecl *V, bool &Any) {
  switch (N->Kind) {
  case NodeKind::Empty:
    return true;
  case NodeKind::Token: {
    const Token &T = N->Tok;
    if (T.Kind == TokenKind::Collective || !T.Op || !T.Call ||
        T.Op->Args.Peer < 0 || T.Op->Args.Peer >= (int)T.Call->getNumArgs() ||
        !refersTo(T.Call->getArg(T.Op->Args.Peer), V))
      return false;
    Any = true;
    return true;
  }
  case NodeKind::Seq:
  case NodeKind::Alt:
    for (const NodeRef &K : N->Kids)
      if (!exchangesWithCounterPeer(K, V, Any))
        return false;
    return true;
  default:
    return false;
  }
}

/// A two-way condition as a positive test and a polarity: `!x`, `x == 0`
/// and `a != b`, `a >= b`, `a > b` are the negations of `x`, `a == b`,
/// `a < b`, `a <= b`, and a truth test `x` is the negation of `x == 0`.
struct NormalCondition {
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  BinaryOperatorKind Opcode = BO_Comma;
  bool Negated = false;
  bool TruthTest = false; ///< `Lhs == 0` (Rhs is null).
};

bool isZero(const Expr *X, ASTContext &Ctx) {
  if (X->isValueDependent())
    return false;
  if (X->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  Expr::EvalResult R;
  return X->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

NormalCondition normalCondition(const Expr *Cond, ASTContext &Ctx) {
  NormalCondition N;
  for (unsigned Depth = 0; Cond && Depth < 8; ++Depth) {
    Cond = Cond->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Cond);
        U && U->getOpcode() == UO_LNot) {
      N.Negated = !N.Negated;
      Cond = U->getSubExpr();
      continue;
    }
    const auto *B = dyn_cast<BinaryOperator>(Cond);
    if (B && B->isEqualityOp()) {
      const Expr *L = B->getLHS(), *R = B->getRHS();
      const Expr *Other = isZero(R, Ctx) ? L : isZero(L, Ctx) ? R : nullptr;
      if (Other) { // `x == 0` is `!x`, `x != 0` is `x`.
        N.Negated ^= B->getOpcode() == BO_EQ;
        Cond = Other;
        continue;
      }
    }
    break;
  }
  N.Lhs = Cond;
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B || !(B->isComparisonOp())) {
    // A truth test `x` is `!(x == 0)`.
    N.Opcode = BO_EQ;
    N.Negated = !N.Negated;
    N.TruthTest = true;
    return N;
  }
  N.Lhs = B->getLHS();
  N.Rhs = B->getRHS();
  switch (B->getOpcode()) {
  case BO_NE:
    N.Opcode = BO_EQ;
    N.Negated = !N.Negated;
    break;
  case BO_GE:
    N.Opcode = BO_LT;
    N.Negated = !N.Negated;
    break;
  case BO_GT:
    N.Opcode = BO_LE;
    N.Negated = !N.Negated;
    break;
  default:
    N.Opcode = B->getOpcode();
  }
  return N;
}

/// `value == constant` (either way round): the value and the constant.
std::optional<std::pair<const Expr *, int64_t>>
constantTest(const NormalCondition &N, ASTContext &Ctx) {
  if (N.TruthTest)
    return std::make_pair(N.Lhs, int64_t(0));
  if (N.Opcode != BO_EQ || !N.Lhs || !N.Rhs)
    return std::nullopt;
  auto Constant = [&](const Expr *X) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (X->isValueDependent() || !X->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt().getSignificantBits() > 64)
      return std::nullopt;
    return R.Val.getInt().getSExtValue();
  };
  if (auto C = Constant(N.Rhs); C && !Constant(N.Lhs))
    return std::make_pair(N.Lhs, *C);
  if (auto C = Constant(N.Lhs); C && !Constant(N.Rhs))
    return std::make_pair(N.Rhs, *C);
  return std::nullopt;
}

} // namespace

/// A counted loop over peers whose every call is a send or receive with
/// the peer the counter names (`for (p = 1; p < size; ++p) MPI_Send(..,
/// p, ..)`): each peer takes part in one of its iterations, so seen from
/// any one peer, which is how rank classes are compared, it is one
/// exchange.
bool oneExchangePerPeer(Engine &E, const Stmt *T, const NodeRef &Body) {
  const auto *F = dyn_cast_or_null<ForStmt>(T);
  const VarDecl *V = F ? countedUniformLoop(E, F) : nullptr;
  bool Any = false;
  return V && exchangesWithCounterPeer(Body, V, Any) && Any;
}

/// A counted loop that runs at least once (a constant trip count of one or
/// more, or a loop over the peers that runs once with two ranks).
bool atLeastOnce(Engine &E, const Stmt *T) {
  const auto *F = dyn_cast_or_null<ForStmt>(T);
  const VarDecl *V = F ? countedUniformLoop(E, F) : nullptr;
  if (!V)
    return false;
  auto Trips = constantTripCount(E, F, V, loopStart(F, V));
  if (Trips)
    return *Trips >= 1;
  return runsOnceWithTwoRanks(E, F, V);
}

std::optional<bool> decidedCondition(Engine &E, const Stmt *T) {
  if (!isa_and_nonnull<IfStmt, ConditionalOperator, BinaryOperator>(T))
    return std::nullopt;
  const Expr *Cond = testedAtom(T);
  if (!Cond || Cond->isValueDependent())
    return std::nullopt;
  NormalCondition N = normalCondition(Cond, E.context());
  auto Test = constantTest(N, E.context());
  if (!Test)
    return std::nullopt;
  UniformityAnswer A = E.uniformity(Test->first);
  if (!A.Uniform || !A.Constant)
    return std::nullopt;
  return (*A.Constant == Test->second) != N.Negated;
}

ChoiceKey choiceKey(Engine &E, const Stmt *T) {
  ChoiceKey K;
  K.Id = reinterpret_cast<uintptr_t>(T);
  if (!T)
    return K;
  // A counted loop with a uniform trip count is keyed by its iterations,
  // whether or not its counter reads as uniform (a counter declared in a
  // rank arm is; one declared for the whole function and reset there is
  // not): loops alike in two arms are one choice.
  const auto *F = dyn_cast<ForStmt>(T);
  const VarDecl *V = F ? uniformTripCount(E, F) : nullptr;
  if (!E.branchUniformity(T).Uniform || V) {
    if (!V)
      return K;
    const Expr *Start = loopStart(F, V);
    llvm::hash_code H;
    if (auto Trips = constantTripCount(E, F, V, Start)) {
      // Keyed by the number of iterations when constants decide it.
      H = llvm::hash_combine(true, 2, *Trips);
    } else {
      // Else by start, bound and step: loops alike run alike.
      llvm::SmallPtrSet<const Decl *, 4> Induction;
      Induction.insert(V);
      H = llvm::hash_combine(true, 1);
      hashStmt(Start, Induction, H, &E);
      hashStmt(F->getCond(), Induction, H, &E);
      hashStmt(F->getInc(), Induction, H, &E);
    }
    K.Id = static_cast<uint64_t>(size_t(H));
    K.Uniform = true;
    return K;
  }
  llvm::SmallPtrSet<const Decl *, 4> Induction;
  const Stmt *Cond = decisionOf(T).Cond;
  if (const auto *F = dyn_cast<ForStmt>(T))
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
      for (const Decl *D : DS->decls())
        Induction.insert(D);
  if (!Cond)
    return K;
  llvm::hash_code H = llvm::hash_combine(isLoopStmt(T));
  if (isa<IfStmt, ConditionalOperator, BinaryOperator>(T)) {
    // Two-way branches: `if (!u)` and `if (u)` are one choice, seen from
    // either side.
    // The block that branches on `a && b` tests b (a has its own block).
    const Expr *Tested = testedAtom(T);
    NormalCondition N =
        normalCondition(Tested ? Tested : cast<Expr>(Cond), E.context());
    K.Negated = N.Negated;
    if (auto Test = constantTest(N, E.context())) {
      llvm::hash_code Subject = llvm::hash_combine(BO_EQ);
      hashStmt(Test->first, Induction, Subject, &E);
      K.Subject = static_cast<uint64_t>(size_t(Subject));
      K.Id = static_cast<uint64_t>(
          size_t(llvm::hash_combine(K.Subject, Test->second)));
      K.Uniform = true;
      return K;
    }
    H = llvm::hash_combine(H, N.Opcode);
    hashStmt(N.Lhs, Induction, H, &E);
    hashStmt(N.Rhs, Induction, H, &E);
    K.Id = static_cast<uint64_t>(size_t(H));
    K.Uniform = true;
    return K;
  }
  hashStmt(Cond, Induction, H, &E);
  K.Id = static_cast<uint64_t>(size_t(H));
  K.Uniform = true;
  return K;
}

} // namespace collectives
} // namespace distlint
