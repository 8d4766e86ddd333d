//===- SequenceBuilder.cpp - Collective sequences from the CFG ------------===//
#include "engine/collectives/SequenceBuilder.h"
#include "engine/AnalysisManager.h"

#include "engine/Engine.h"
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"
#include "engine/UserCode.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/FailStop.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#include <algorithm>
#include <optional>
#include <functional>
#include <utility>

using namespace clang;

namespace distlint {
namespace collectives {

const Expr *communicatorOf(const CallExpr *Call, const api::ApiEntry *Entry) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call))
    return MC->getImplicitObjectArgument();
  if (Entry && Entry->Args.Comm >= 0 &&
      Entry->Args.Comm < (int)Call->getNumArgs())
    return Call->getArg(Entry->Args.Comm);
  return nullptr;
}

namespace {

const Expr *peel(const Expr *X) {
  while (X) {
    const Expr *Next = stripValue(X)->IgnoreParenCasts();
    if (Next == X)
      return X;
    X = Next;
  }
  return X;
}

/// What an argument names, following locals to their only definition.
/// Communicators: a local handle that is written (by a split, a dup, an
/// init) names its own communicator object.
ArgKey argKey(Engine &E, const Expr *X, bool IsComm, int Depth = 0) {
  if (!X || Depth > 4)
    return {};
  X = peel(X);
  if (isa<CXXDefaultArgExpr>(X))
    return {};
  if (!IsComm)
    if (auto V = evaluateInt(E, X))
      return ArgKey::integer(V->getExtValue());
  // `c ? 2 : 1` with c the same on every rank: one of two values.
  if (const auto *C = dyn_cast<ConditionalOperator>(X); C && !IsComm) {
    auto T = evaluateInt(E, C->getTrueExpr());
    auto F = evaluateInt(E, C->getFalseExpr());
    if (T && F && E.uniformity(C->getCond()).Uniform)
      return T->getExtValue() == F->getExtValue()
                 ? ArgKey::integer(T->getExtValue())
                 : ArgKey::choice(C, T->getExtValue(), F->getExtValue());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(X);
      U && U->getOpcode() == UO_AddrOf)
    X = peel(U->getSubExpr());
  const auto *DR = dyn_cast<DeclRefExpr>(X);
  if (!DR)
    return {};
  if (const auto *EC = dyn_cast<EnumConstantDecl>(DR->getDecl()))
    return EC->getInitVal().isRepresentableByInt64()
               ? ArgKey::integer(EC->getInitVal().getExtValue())
               : ArgKey();
  const auto *VD = dyn_cast<VarDecl>(DR->getDecl());
  if (!VD || isa<ParmVarDecl>(VD))
    return {};
  if (const Expr *Init = soleDefinition(E, VD)) {
    ArgKey K = argKey(E, Init, IsComm, Depth + 1);
    if (K.known())
      return K;
  }
  if (VD->hasGlobalStorage() && !VD->isStaticLocal() &&
      !VD->getType()->isReferenceType())
    return ArgKey::symbol(VD->getCanonicalDecl());
  if (IsComm && VD->isLocalVarDecl() && !VD->getType()->isReferenceType() &&
      !VD->getType()->isRecordType())
    return ArgKey::symbol(VD);
  return {};
}

ArgKey argAt(Engine &E, const CallExpr *Call, int Index) {
  if (Index < 0 || Index >= (int)Call->getNumArgs() ||
      isa<CXXOperatorCallExpr>(Call))
    return {};
  return argKey(E, Call->getArg(Index), /*IsComm=*/false);
}

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

bool isLoopStmt(const Stmt *S) {
  return S && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

} // namespace

void noteBudgetHit(Engine &E, const char *Which, const FunctionDecl *FD) {
  std::string Where = FD ? FD->getQualifiedNameAsString() : "<global>";
  E.limits().hit(Which, Where);
  if (std::getenv("DISTLINT_DEBUG_BUDGETS"))
    llvm::errs() << "distlint: debug: " << Which << " budget hit in " << Where
                 << "; the branch is not compared\n";
}

SequenceBuilder::SequenceBuilder(Engine &E, FunctionFacts &F,
                                 CalleeTrees &Callees)
    : E(E), F(F), Callees(Callees), Budget(E.limits().SequenceBlocks) {}

std::optional<Token> tokenAt(Engine &E, const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD)
    return std::nullopt;
  Token T;
  T.Call = Call;
  if (const api::ApiEntry *P2P = E.api().find(FD, api::Role::PointToPoint)) {
    // Calls that hand back a request return at once; the wait blocks, but
    // on a request whose peer is a matching question. A buffered send
    // returns at once too.
    T.Kind = P2P->Args.Request >= 0 || P2P->Facts.CompletesLocally
                 ? TokenKind::PostedPointToPoint
                 : TokenKind::PointToPoint;
    T.Op = P2P;
    T.Comm = argKey(E, communicatorOf(Call, P2P), /*IsComm=*/true);
    return T;
  }
  const api::ApiEntry *Coll = E.api().find(FD, api::Role::Collective);
  if (!Coll || E.isOnSubCommunicator(Call))
    return std::nullopt;
  T.Op = Coll;
  T.Comm = argKey(E, communicatorOf(Call, Coll), /*IsComm=*/true);
  T.Root = argAt(E, Call, Coll->Args.Root);
  T.ReduceOp = argAt(E, Call, Coll->Args.Op);
  T.DType = argAt(E, Call, Coll->Args.DType);
  T.Count = argAt(E, Call, Coll->Args.Count);
  // A rank that passes the in-place marker does not read its own count and
  // type: they cannot disagree with the others'.
  if (passesInPlace(E, Call, Coll))
    T.DType = T.Count = ArgKey();
  if (passesInterRoot(E, Call, Coll))
    T.Root = ArgKey();
  return T;
}

bool passesInPlace(Engine &E, const CallExpr *Call,
                   const api::ApiEntry *Entry) {
  int I = Entry ? Entry->Args.InPlace : -1;
  return I >= 0 && I < (int)Call->getNumArgs() &&
         mayExpandMacro(Call->getArg(I), api::inPlaceMarkerName(), E.context());
}

bool passesInterRoot(Engine &E, const CallExpr *Call,
                     const api::ApiEntry *Entry) {
  int I = Entry ? Entry->Args.Root : -1;
  if (I < 0 || I >= (int)Call->getNumArgs())
    return false;
  auto IsMarker = [&](const Expr *X) {
    for (llvm::StringRef Name : api::interRootMarkerNames())
      if (mayExpandMacro(X, Name, E.context()))
        return true;
    return false;
  };
  const Expr *Root = Call->getArg(I);
  if (IsMarker(Root))
    return true;
  const auto *Ref = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const FunctionDecl *FD = E.enclosingFunction(Call);
  if (!V || !FD || !FD->getBody())
    return false;
  if (V->getInit() && IsMarker(V->getInit()))
    return true;
  // `root = MPI_ROOT;` anywhere in the function.
  bool Found = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *B = dyn_cast<BinaryOperator>(S);
        B && B->getOpcode() == BO_Assign && designatedVar(B->getLHS()) == V &&
        IsMarker(B->getRHS()))
      Found = true;
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(FD->getBody());
  return Found;
}

bool endsJob(Engine &E, const CallExpr *Call) {
  const FunctionDecl *FD = E.resolveCallee(Call);
  if (!FD || E.endsProgramNormally(Call))
    return false;
  if (FD->isNoReturn() || E.api().has(FD, api::Role::FailStop))
    return true;
  if (FD->hasBody() && isTaughtDecl(E, FD))
    return E.summary(FD).NoReturn;
  return false;
}

namespace {
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

const VarDecl *countedUniformLoop(Engine &E, const ForStmt *F) {
  const VarDecl *V = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl())
      if ((V = dyn_cast<VarDecl>(DS->getSingleDecl())))
        Start = V->getInit();
  } else if (const auto *B = dyn_cast_or_null<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign) {
    V = designatedVar(B->getLHS());
    Start = B->getRHS();
  }
  if (!V || !Start || !V->getType()->isIntegerType() ||
      !E.uniformity(Start).Uniform)
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond || !(Cond->isRelationalOp() || Cond->isEqualityOp()))
    return nullptr;
  const Expr *L = Cond->getLHS()->IgnoreParenImpCasts();
  const Expr *R = Cond->getRHS()->IgnoreParenImpCasts();
  const Expr *Bound = designatedVar(L) == V && isa<DeclRefExpr>(L)   ? R
                      : designatedVar(R) == V && isa<DeclRefExpr>(R) ? L
                                                                     : nullptr;
  if (!Bound || refersTo(Bound, V) || !E.uniformity(Bound).Uniform)
    return nullptr;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (!U->isIncrementDecrementOp() || designatedVar(U->getSubExpr()) != V)
      return nullptr;
  } else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if ((C->getOpcode() != BO_AddAssign && C->getOpcode() != BO_SubAssign) ||
        designatedVar(C->getLHS()) != V || refersTo(C->getRHS(), V) ||
        !E.uniformity(C->getRHS()).Uniform)
      return nullptr;
  } else {
    return nullptr;
  }
  if (writesOrLeaves(F->getBody(), V, /*Nested=*/false))
    return nullptr;
  return V;
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
} // namespace

ChoiceKey choiceKey(Engine &E, const Stmt *T) {
  ChoiceKey K;
  K.Id = reinterpret_cast<uintptr_t>(T);
  if (!T)
    return K;
  if (!E.branchUniformity(T).Uniform) {
    const auto *F = dyn_cast<ForStmt>(T);
    const VarDecl *V = F ? countedUniformLoop(E, F) : nullptr;
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
  const Stmt *Cond = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(T))
    Cond = If->getCond();
  else if (const auto *W = dyn_cast<WhileStmt>(T))
    Cond = W->getCond();
  else if (const auto *D = dyn_cast<DoStmt>(T))
    Cond = D->getCond();
  else if (const auto *S = dyn_cast<SwitchStmt>(T))
    Cond = S->getCond();
  else if (const auto *C = dyn_cast<ConditionalOperator>(T))
    Cond = C->getCond();
  else if (const auto *B = dyn_cast<BinaryOperator>(T))
    Cond = B->getLHS();
  else if (const auto *F = dyn_cast<ForStmt>(T)) {
    Cond = F->getCond();
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
      for (const Decl *D : DS->decls())
        Induction.insert(D);
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(T))
    Cond = R->getRangeInit();
  if (!Cond)
    return K;
  llvm::hash_code H = llvm::hash_combine(isLoopStmt(T));
  hashStmt(Cond, Induction, H, &E);
  K.Id = static_cast<uint64_t>(size_t(H));
  K.Uniform = true;
  return K;
}

NodeRef SequenceBuilder::elements(const CFGBlock *B, bool &EndsJob) {
  std::vector<NodeRef> Parts;
  bool NormalEnd = false;
  for (const CFGElement &El : *B) {
    auto CS = El.getAs<CFGStmt>();
    const auto *Call = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
    if (!Call)
      continue;
    if (E.endsProgramNormally(Call)) {
      NormalEnd = true; // On to the function's exit, issuing nothing more.
      break;
    }
    if (endsJob(E, Call)) {
      EndsJob = true;
      break;
    }
    if (auto T = tokenAt(E, Call)) {
      Parts.push_back(Node::token(*T));
      continue;
    }
    const FunctionDecl *Callee = E.resolveCallee(Call);
    if (Callee && Callee->hasBody() && isTaughtDecl(E, Callee)) {
      NodeRef Tree = functionSequence(E, Callee, Callees);
      // Given sub-communicators, its collectives involve their members
      // only (like a direct collective on one); what else it does counts.
      if (onlyCollectives(Tree) && E.isOnSubCommunicator(Call))
        continue;
      Parts.push_back(Node::call(Call, std::move(Tree)));
    }
  }
  if (B->hasNoReturnElement() && !NormalEnd)
    EndsJob = true;
  if (EndsJob)
    Parts.push_back(Node::failStop());
  return Node::seq(std::move(Parts));
}

SequenceBuilder::Walk
SequenceBuilder::walk(const CFGBlock *B,
                      llvm::ArrayRef<const CFGBlock *> Stops) {
  std::vector<NodeRef> Parts;
  llvm::SmallVector<const CFGBlock *, 16> Added;
  const CFGBlock *Exit = &F.cfg().getExit();
  const CFGBlock *Ended = nullptr;
  while (B) {
    if (llvm::is_contained(Stops, B)) {
      Ended = B;
      break;
    }
    if (--Budget < 0) {
      BudgetHit = true;
      break;
    }
    // A cycle that is not a loop statement (goto): its first pass only.
    if (!OnPath.insert(B).second)
      break;
    Added.push_back(B);
    bool Ends = false;
    Parts.push_back(elements(B, Ends));
    if (Ends || B == Exit)
      break;
    // A throw that leaves the function ends the job (or is a caller's
    // divergence, see thrownPast); inside a try it is an ordinary branch.
    if (const Stmt *T = B->getTerminatorStmt(); T && isa<CXXThrowExpr>(T)) {
      bool Leaves = true;
      for (const CFGBlock *Succ : B->succs())
        Leaves = Leaves && (!Succ || Succ == Exit);
      if (Leaves) {
        Parts.push_back(Node::failStop());
        break;
      }
    }
    llvm::SmallVector<const CFGBlock *, 4> Succs;
    ChoiceSource Source;
    Source.Term = B->getTerminatorStmt();
    Source.NumSuccs = B->succ_size();
    unsigned Index = 0;
    for (const CFGBlock *Succ : B->succs()) {
      // An exception none of the handlers catches leaves the function: it
      // ends the job like a throw outside any try (callers: thrownPast).
      if (escapesTry(B, Succ)) {
        ++Index;
        continue;
      }
      if (Succ && !llvm::is_contained(Succs, Succ)) {
        Succs.push_back(Succ);
        Source.Succ.push_back(Index);
        Source.Label.push_back(Succ->getLabel());
      }
      ++Index;
    }
    if (Succs.empty())
      break;
    const Stmt *Term = B->getTerminatorStmt();
    if (isLoopStmt(Term)) {
      const CFGBlock *After = E.liveJoin(F.function(), B);
      llvm::SmallVector<const CFGBlock *, 8> Inner(Stops.begin(), Stops.end());
      Inner.push_back(B);
      if (After)
        Inner.push_back(After);
      Walk Body =
          walk(*B->succ_begin() ? *B->succ_begin() : Succs.front(), Inner);
      if (oneExchangePerPeer(E, Term, Body.N)) {
        Parts.push_back(Body.N);
        B = After;
        continue;
      }
      NodeRef Loop = Node::loop(choiceKey(E, Term), Body.N, Source);
      // A counted loop that constants make run at least once: its first
      // iteration is not a choice.
      if (atLeastOnce(E, Term))
        Loop = Node::seq({Body.N, std::move(Loop)});
      Parts.push_back(std::move(Loop));
      B = After;
      continue;
    }
    if (Succs.size() == 1) {
      B = Succs.front();
      continue;
    }
    const CFGBlock *Join = E.liveJoin(F.function(), B);
    llvm::SmallVector<const CFGBlock *, 8> Inner(Stops.begin(), Stops.end());
    if (Join)
      Inner.push_back(Join);
    std::vector<NodeRef> Options;
    const CFGBlock *LeftAt = nullptr;
    for (const CFGBlock *Succ : Succs) {
      Walk W = walk(Succ, Inner);
      Options.push_back(W.N);
      if (W.EndedAt && W.EndedAt != Join &&
          llvm::is_contained(Stops, W.EndedAt))
        LeftAt = W.EndedAt;
    }
    Parts.push_back(
        Node::alt(choiceKey(E, Term), std::move(Options), std::move(Source)));
    // An arm left the enclosing region (break, continue, return out of a
    // loop body): the join lies beyond it.
    if (LeftAt) {
      Ended = LeftAt;
      break;
    }
    B = Join;
  }
  for (const CFGBlock *A : Added)
    OnPath.erase(A);
  return {Node::seq(std::move(Parts)), Ended};
}

/// Accounts for Tree, inlined into the tree being built.
static NodeRef useTree(CalleeTrees &Callees, const CalleeTrees::Built &Tree) {
  Callees.CalleeHeight = std::max(Callees.CalleeHeight, Tree.Height);
  Callees.Cut |= !Tree.Complete;
  return Tree.Tree;
}

NodeRef functionSequence(Engine &E, const FunctionDecl *FD,
                         CalleeTrees &Callees) {
  if (const FunctionDecl *Def = FD->getDefinition())
    FD = Def;
  auto It = Callees.Done.find(FD);
  if (It != Callees.Done.end())
    return useTree(Callees, It->second);
  AnalysisManager &P = *E.P;
  unsigned Limit = E.limits().SequenceInlineDepth;
  // A complete tree of an earlier question, where it fits the depth: its
  // body may have been dropped since, and every caller would rebuild it.
  auto Known = P.CompleteTrees.find(FD);
  if (Known != P.CompleteTrees.end() &&
      Callees.InProgress.size() + Known->second.Height <= Limit)
    return useTree(Callees, Callees.Done[FD] = Known->second);
  FactsRef F = E.facts(FD); // Held while the builder walks its blocks.
  if (!F)
    return Node::empty(); // No CFG.
  if (!Callees.InProgress.insert(FD).second) {
    Callees.Cut = true; // Recursion.
    return Node::empty();
  }
  if (Callees.InProgress.size() > Limit) {
    Callees.InProgress.erase(FD);
    Callees.Cut = true;
    noteBudgetHit(E, "collective-sequence inlining depth", FD);
    return Node::empty();
  }
  bool OuterCut = std::exchange(Callees.Cut, false);
  unsigned OuterHeight = std::exchange(Callees.CalleeHeight, 0);
  unsigned HitsBefore = E.limits().HitCount;
  CalleeTrees::Built Tree;
  Tree.Tree = SequenceBuilder(E, *F, Callees).function();
  Tree.Height = Callees.CalleeHeight + 1;
  Tree.Complete = !Callees.Cut && E.limits().HitCount == HitsBefore;
  Callees.Cut = OuterCut;
  Callees.CalleeHeight = OuterHeight;
  Callees.InProgress.erase(FD);
  Callees.Done[FD] = Tree;
  // Kept for the TU only once its facts are final, and only for callees
  // (the trees of 60,000 functions nobody calls would cost memory).
  if (Tree.Complete && P.Prepared)
    if (FunctionResult *R = P.analyze(FD); R && R->Called)
      P.CompleteTrees[FD] = Tree;
  return useTree(Callees, Tree);
}

NodeRef SequenceBuilder::function() { return walk(&F.cfg().getEntry(), {}).N; }

std::vector<NodeRef> SequenceBuilder::arms(const CFGBlock *Branch) {
  std::vector<NodeRef> Out;
  bool Fresh = OnPath.insert(Branch).second;
  const CFGBlock *Join = E.liveJoin(F.function(), Branch);
  llvm::SmallVector<const CFGBlock *, 1> Stops;
  if (Join)
    Stops.push_back(Join);
  llvm::SmallVector<const CFGBlock *, 4> Seen;
  for (const CFGBlock *Succ : Branch->succs())
    if (Succ && !llvm::is_contained(Seen, Succ)) {
      Seen.push_back(Succ);
      Out.push_back(walk(Succ, Stops).N);
    }
  if (Fresh)
    OnPath.erase(Branch);
  return Out;
}

} // namespace collectives
} // namespace distlint
