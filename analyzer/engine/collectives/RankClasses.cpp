//===- RankClasses.cpp - What each class of ranks issues ------------------===//
#include "engine/collectives/RankClasses.h"

#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/collectives/SequenceBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace distlint {
namespace collectives {

namespace {

/// A branch condition as a function of the rank and the world size: what
/// the uniformity analysis knows of its leaves (the rank, a * W + c, or
/// nothing), combined by the C++ operators around them.
struct CondExpr {
  /// Named: a value every rank holds alike, known by name only (a
  /// broadcast's element; for the root alone, what it sent: Rank).
  enum class Kind : uint8_t {
    Unknown,
    Value,
    Rank,
    Named,
    Unary,
    Binary,
    Choose
  };
  Kind K = Kind::Unknown;
  LinearBound V;        ///< Value: V.W * W + V.C.
  uint64_t Name = 0;    ///< Named.
  int64_t NamedOn = -1; ///< Named: valid on this rank only (-1: on all).
  unsigned Op = 0;
  std::vector<CondExpr> Kids;

  bool mentionsRank() const {
    if (K == Kind::Rank)
      return true;
    return llvm::any_of(Kids,
                        [](const CondExpr &C) { return C.mentionsRank(); });
  }
  /// Largest constant magnitude it compares with (to choose world sizes).
  int64_t largestConstant() const {
    // Magnitude, capped (std::abs(INT64_MIN) is undefined).
    int64_t M =
        K == Kind::Value
            ? (V.C < -1000 || V.C > 1000 ? 1000 : (V.C < 0 ? -V.C : V.C))
            : 0;
    for (const CondExpr &C : Kids)
      M = std::max(M, C.largestConstant());
    return M;
  }
};

std::optional<int64_t> evaluate(const CondExpr &X, const RankClass &C) {
  using K = CondExpr::Kind;
  switch (X.K) {
  case K::Unknown:
  case K::Named:
    return std::nullopt;
  case K::Value: {
    int64_t Scaled = 0, Out = 0;
    if (__builtin_mul_overflow(X.V.W, C.World, &Scaled) ||
        __builtin_add_overflow(Scaled, X.V.C, &Out))
      return std::nullopt;
    return Out;
  }
  case K::Rank:
    return C.Rank;
  case K::Unary: {
    auto A = evaluate(X.Kids[0], C);
    if (!A)
      return std::nullopt;
    switch (X.Op) {
    case UO_LNot:
      return *A == 0;
    case UO_Minus:
      return *A == INT64_MIN ? std::nullopt : std::optional<int64_t>(-*A);
    case UO_Not:
      return ~*A;
    default:
      return *A;
    }
  }
  case K::Choose: {
    auto Cond = evaluate(X.Kids[0], C);
    if (!Cond)
      return std::nullopt;
    return evaluate(X.Kids[*Cond ? 1 : 2], C);
  }
  case K::Binary:
    break;
  }
  auto L = evaluate(X.Kids[0], C);
  // Short-circuits decide with one side known.
  if (X.Op == BO_LAnd || X.Op == BO_LOr) {
    bool IsAnd = X.Op == BO_LAnd;
    if (L && (*L != 0) != IsAnd)
      return IsAnd ? 0 : 1;
    auto R = evaluate(X.Kids[1], C);
    if (R && (*R != 0) != IsAnd)
      return IsAnd ? 0 : 1;
    if (L && R)
      return IsAnd ? 1 : 0;
    return std::nullopt;
  }
  auto R = evaluate(X.Kids[1], C);
  if (!L || !R)
    return std::nullopt;
  int64_t A = *L, B = *R, Out = 0;
  // Arithmetic that overflows (or is undefined) decides nothing.
  switch (X.Op) {
  case BO_Add:
    return __builtin_add_overflow(A, B, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Sub:
    return __builtin_sub_overflow(A, B, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Mul:
    return __builtin_mul_overflow(A, B, &Out) ? std::nullopt
                                              : std::optional<int64_t>(Out);
  case BO_Div:
  case BO_Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return X.Op == BO_Div ? A / B : A % B;
  case BO_And:
    return A & B;
  case BO_Or:
    return A | B;
  case BO_Xor:
    return A ^ B;
  case BO_Shl:
    return A >= 0 && B >= 0 && B < 32 && A < (int64_t(1) << 30)
               ? std::optional<int64_t>(A << B)
               : std::nullopt;
  case BO_Shr:
    return A >= 0 && B >= 0 && B < 63 ? std::optional<int64_t>(A >> B)
                                      : std::nullopt;
  case BO_LT:
    return A < B;
  case BO_GT:
    return A > B;
  case BO_LE:
    return A <= B;
  case BO_GE:
    return A >= B;
  case BO_EQ:
    return A == B;
  case BO_NE:
    return A != B;
  default:
    return std::nullopt;
  }
}

/// The condition a branch or loop statement tests (null: none we read).
const Expr *conditionOf(const Stmt *T) {
  if (const auto *If = dyn_cast<IfStmt>(T))
    return If->getConditionVariable() ? nullptr : If->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(T))
    return W->getConditionVariable() ? nullptr : W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(T))
    return D->getCond();
  if (const auto *F = dyn_cast<ForStmt>(T))
    return F->getCond();
  if (const auto *S = dyn_cast<SwitchStmt>(T))
    return S->getConditionVariable() ? nullptr : S->getCond();
  if (const auto *C = dyn_cast<ConditionalOperator>(T))
    return C->getCond();
  if (const auto *B = dyn_cast<BinaryOperator>(T))
    return B->isLogicalOp() ? B->getLHS() : nullptr;
  return nullptr;
}

/// The part of its condition a branch block tests: the right operand of a
/// `&&` / `||` condition (the left one has its own block), the left operand
/// of a logical operator that terminates a block.
const Expr *testedAtom(const Stmt *T) {
  const Expr *X = nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(T))
    X = B->isLogicalOp() ? B->getLHS() : nullptr;
  else
    X = conditionOf(T);
  while (X) {
    const auto *B = dyn_cast<BinaryOperator>(X->IgnoreParenImpCasts());
    if (!B || !B->isLogicalOp())
      break;
    X = B->getRHS();
  }
  return X;
}

/// A name for the atom a choice tests, for the ranks of class C: the same
/// on every class where it reads the same named values, and whether the
/// options are swapped against it (`!deflt` tests `deflt`); nullopt when a
/// leaf is unknown, the rank, or named for another rank only.
std::optional<std::pair<uint64_t, bool>> atomName(const CondExpr &X,
                                                  const RankClass &C) {
  using K = CondExpr::Kind;
  const CondExpr *A = &X;
  bool Flipped = false;
  auto IsZero = [](const CondExpr &V) {
    return V.K == K::Value && V.V.W == 0 && V.V.C == 0;
  };
  for (;;) {
    if (A->K == K::Unary && A->Op == UO_LNot) {
      Flipped = !Flipped;
      A = &A->Kids[0];
    } else if (A->K == K::Binary && (A->Op == BO_NE || A->Op == BO_EQ) &&
               (IsZero(A->Kids[0]) || IsZero(A->Kids[1]))) {
      Flipped = A->Op == BO_EQ ? !Flipped : Flipped;
      A = IsZero(A->Kids[1]) ? &A->Kids[0] : &A->Kids[1];
    } else {
      break;
    }
  }
  bool AnyName = false;
  std::function<std::optional<uint64_t>(const CondExpr &)> Hash =
      [&](const CondExpr &N) -> std::optional<uint64_t> {
    switch (N.K) {
    case K::Unknown:
    case K::Rank:
      return std::nullopt;
    case K::Value:
      return llvm::hash_combine(1, N.V.W, N.V.C);
    case K::Named:
      if (N.NamedOn >= 0 && N.NamedOn != C.Rank)
        return std::nullopt;
      AnyName = true;
      return llvm::hash_combine(2, N.Name);
    default:
      break;
    }
    llvm::hash_code H = llvm::hash_combine(3, unsigned(N.K), N.Op);
    for (const CondExpr &Kid : N.Kids) {
      auto KH = Hash(Kid);
      if (!KH)
        return std::nullopt;
      H = llvm::hash_combine(H, *KH);
    }
    return static_cast<uint64_t>(size_t(H));
  };
  auto H = Hash(*A);
  if (!H || !AnyName)
    return std::nullopt;
  return std::make_pair(*H, Flipped);
}

/// Builds CondExprs from the uniformity state at one branch.
class CondBuilder {
public:
  CondBuilder(Engine &E, UniformityAnalysis &U, const VarState &S)
      : E(E), U(U), S(S) {}

  CondExpr build(const Expr *X, int Depth = 0) {
    CondExpr Out;
    if (!X || Depth > 12)
      return Out;
    X = X->IgnoreParens();
    if (auto V = evaluateInt(E, X)) {
      Out.K = CondExpr::Kind::Value;
      Out.V = {0, V->getExtValue()};
      return Out;
    }
    if (const auto *Cast = dyn_cast<CastExpr>(X)) {
      switch (Cast->getCastKind()) {
      case CK_IntegralToBoolean:
      case CK_FloatingToBoolean: {
        CondExpr Zero;
        Zero.K = CondExpr::Kind::Value;
        return binary(BO_NE, build(Cast->getSubExpr(), Depth + 1), Zero);
      }
      case CK_LValueToRValue:
      case CK_IntegralCast:
      case CK_NoOp:
      case CK_IntegralToFloating:
      case CK_FloatingToIntegral:
      case CK_BooleanToSignedIntegral:
        return build(Cast->getSubExpr(), Depth + 1);
      default:
        return leaf(X, Depth);
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(X)) {
      switch (UO->getOpcode()) {
      case UO_LNot:
      case UO_Minus:
      case UO_Plus:
      case UO_Not:
        Out.K = CondExpr::Kind::Unary;
        Out.Op = UO->getOpcode();
        Out.Kids.push_back(build(UO->getSubExpr(), Depth + 1));
        return Out;
      default:
        return leaf(X, Depth);
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(X)) {
      if (BO->getOpcode() == BO_Comma)
        return build(BO->getRHS(), Depth + 1);
      if (BO->isAssignmentOp() || BO->isPtrMemOp())
        return leaf(X, Depth);
      return binary(BO->getOpcode(), build(BO->getLHS(), Depth + 1),
                    build(BO->getRHS(), Depth + 1));
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(X)) {
      Out.K = CondExpr::Kind::Choose;
      Out.Kids.push_back(build(CO->getCond(), Depth + 1));
      Out.Kids.push_back(build(CO->getTrueExpr(), Depth + 1));
      Out.Kids.push_back(build(CO->getFalseExpr(), Depth + 1));
      return Out;
    }
    return leaf(X, Depth);
  }

private:
  Engine &E;
  UniformityAnalysis &U;
  const VarState &S;

  static CondExpr binary(unsigned Op, CondExpr L, CondExpr R) {
    CondExpr Out;
    Out.K = CondExpr::Kind::Binary;
    Out.Op = Op;
    Out.Kids.push_back(std::move(L));
    Out.Kids.push_back(std::move(R));
    return Out;
  }

  CondExpr leaf(const Expr *X, int Depth) {
    CondExpr Out;
    Taint T = U.eval(X, S);
    if (T.IsRank) {
      Out.K = CondExpr::Kind::Rank;
      return Out;
    }
    if (!T.Vary && !T.Params && T.Range && T.Range->Lo == T.Range->Hi) {
      Out.K = CondExpr::Kind::Value;
      Out.V = T.Range->Lo;
      return Out;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    const auto *VD = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    // `const bool is_root = rank == 0;`: the flag is its definition.
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
      if (const Expr *Init = soleDefinition(E, VD)) {
        CondExpr Def = build(Init, Depth + 1);
        if (Def.mentionsRank())
          return Def;
      }
    // A value known by name: what the variable holds here (a read of it
    // is named by the variable, not by its value, in the data-flow).
    if (VD) {
      auto It = S.find(VD);
      // What a broadcast's root sent is named as its receivers read it.
      if (It != S.end() && It->second.RootKey) {
        Out.K = CondExpr::Kind::Named;
        Out.Name = It->second.RootKey;
        Out.NamedOn = It->second.RootRank;
        return Out;
      }
      if (It != S.end() && It->second.knownValue() && It->second.ValueKey) {
        Out.K = CondExpr::Kind::Named;
        Out.Name = It->second.ValueKey;
        return Out;
      }
    }
    if (!T.Vary && !T.Params && T.ValueKey) {
      Out.K = CondExpr::Kind::Named;
      Out.Name = T.ValueKey;
      return Out;
    }
    if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD))
      if (const Expr *Init = soleDefinition(E, VD))
        return build(Init, Depth + 1);
    return Out;
  }
};

} // namespace

/// Builds the class trees of one function and compares them.
class RankClassComparer {
public:
  explicit RankClassComparer(Engine &E) : E(E) {}

  ClassComparison run(const FunctionDecl *FD);
  static std::map<const FunctionDecl *, std::unique_ptr<ClassComparison>> &
  cache(Engine &E) {
    return E.P->RankClassResults;
  }

private:
  Engine &E;
  /// Condition of each branch met in the tree (nullopt: not readable).
  llvm::DenseMap<const Stmt *, std::optional<CondExpr>> Conds;
  /// The atom each branch tests (testedAtom), where it reads named values.
  llvm::DenseMap<const Stmt *, CondExpr> Atoms;
  /// Two-way choices that a class may name by their atom instead of their
  /// statement, and the branches some class could not (Unnamed) or could
  /// (Named) name that way.
  llvm::SmallPtrSet<const Node *, 8> Nameable;
  llvm::SmallPtrSet<const Stmt *, 8> Named, Unnamed;
  /// Ranks some atom's names are valid on alone (CondExpr::NamedOn).
  std::set<int64_t> NamingRanks;
  /// Collective tokens whose count or root argument holds a named value
  /// (the leaf for each; Kind::Unknown where not named).
  struct ArgNames {
    CondExpr Count, Root;
  };
  llvm::DenseMap<const Node *, ArgNames> TokenArgs;
  void nameArguments(const Node &N);
  /// Choice nodes whose condition may be decided, in the order first met.
  std::vector<const Node *> Choices;
  llvm::DenseMap<const Node *, unsigned> ChoiceIndex;
  /// Blocks by their terminator, per function.
  llvm::DenseMap<const FunctionDecl *,
                 llvm::DenseMap<const Stmt *, const CFGBlock *>>
      Terminators;

  const std::optional<CondExpr> &conditionAt(const Stmt *Term);
  void collect(const NodeRef &N, llvm::SmallPtrSetImpl<const Node *> &Seen);
  /// The option class C takes at choice N; -1: undecided; for loops 0 / 1
  /// mean no more iterations / undecided body.
  int decide(const Node &N, const RankClass &C);
  NodeRef resolve(const NodeRef &N, const std::vector<int> &Decisions,
                  llvm::DenseMap<const Node *, NodeRef> &Memo);
  /// The class whose tree resolve() builds.
  const RankClass *Class = nullptr;
};

const std::optional<CondExpr> &
RankClassComparer::conditionAt(const Stmt *Term) {
  auto [It, New] = Conds.try_emplace(Term);
  if (!New)
    return It->second;
  const Expr *Cond = conditionOf(Term);
  const FunctionDecl *FD = Cond ? E.enclosingFunction(Term) : nullptr;
  ResidentResult R = FD ? E.P->resident(FD) : ResidentResult();
  if (!R)
    return It->second;
  auto &Blocks = Terminators[FD];
  if (Blocks.empty())
    for (const CFGBlock *B : R.facts().reversePostOrder())
      if (const Stmt *T = B->getTerminatorStmt())
        Blocks.try_emplace(T, B);
  const CFGBlock *B = Blocks.lookup(Term);
  if (!B)
    return It->second;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, Term);
  CondExpr X = CondBuilder(E, U, S).build(Cond);
  CondExpr Atom = CondBuilder(E, U, S).build(testedAtom(Term));
  std::function<bool(const CondExpr &)> HasName = [&](const CondExpr &N) {
    if (N.K == CondExpr::Kind::Named && N.NamedOn >= 0)
      NamingRanks.insert(N.NamedOn);
    bool Kids = false;
    for (const CondExpr &K : N.Kids)
      Kids = HasName(K) || Kids;
    return N.K == CondExpr::Kind::Named || Kids;
  };
  if (HasName(Atom))
    Atoms[Term] = std::move(Atom);
  // The map may have grown while the state was replayed: look up again.
  return Conds[Term] = std::move(X);
}

void RankClassComparer::nameArguments(const Node &N) {
  const Token &T = N.Tok;
  if (!T.Call || !T.Op || (T.Count.known() && T.Root.known()))
    return;
  const FunctionDecl *FD = E.enclosingFunction(T.Call);
  ResidentResult R = FD ? E.P->resident(FD) : ResidentResult();
  if (!R)
    return;
  const CFGBlock *B = R.facts().blockOf(T.Call);
  if (!B)
    return;
  auto ArgAt = [&](int I) -> const Expr * {
    return I >= 0 && I < (int)T.Call->getNumArgs() ? T.Call->getArg(I)
                                                   : nullptr;
  };
  const Expr *Count = T.Count.known() ? nullptr : ArgAt(T.Op->Args.Count);
  const Expr *Root = T.Root.known() ? nullptr : ArgAt(T.Op->Args.Root);
  if (!Count && !Root)
    return;
  UniformityAnalysis U(E, FD, *R);
  VarState S = U.stateBefore(B, T.Call);
  ArgNames Names;
  auto Leaf = [&](const Expr *X) {
    CondExpr L = X ? CondBuilder(E, U, S).build(X) : CondExpr();
    if (L.K != CondExpr::Kind::Named)
      return CondExpr();
    if (L.NamedOn >= 0)
      NamingRanks.insert(L.NamedOn);
    return L;
  };
  Names.Count = Leaf(Count);
  Names.Root = Leaf(Root);
  if (Names.Count.K == CondExpr::Kind::Named ||
      Names.Root.K == CondExpr::Kind::Named)
    TokenArgs[&N] = std::move(Names);
}

void RankClassComparer::collect(const NodeRef &N,
                                llvm::SmallPtrSetImpl<const Node *> &Seen) {
  if (!N || !Seen.insert(N.get()).second)
    return;
  if ((N->Kind == NodeKind::Alt || N->Kind == NodeKind::Loop) &&
      N->Source.Term) {
    // Rank-dependent choices, and uniform ones that end the job on one
    // side (a world-size check): others are the same on every class.
    bool Wanted = !N->Key.Uniform;
    if (N->Key.Uniform && N->Kind == NodeKind::Alt)
      Wanted = llvm::any_of(N->Kids, alwaysFailStops);
    if (Wanted && conditionAt(N->Source.Term)) {
      ChoiceIndex[N.get()] = Choices.size();
      Choices.push_back(N.get());
    }
  }
  if (N->Kind == NodeKind::Token && N->Tok.Kind == TokenKind::Collective)
    nameArguments(*N);
  // A two-way branch on a value every rank holds alike: classes that
  // read it by the same name make the same choice.
  if (N->Kind == NodeKind::Alt && N->Source.Term && N->Kids.size() == 2 &&
      N->Source.Succ.size() == 2 && N->Source.Succ[0] == 0 &&
      N->Source.Succ[1] == 1 && conditionAt(N->Source.Term) &&
      Atoms.count(N->Source.Term))
    Nameable.insert(N.get());
  for (const NodeRef &K : N->Kids)
    collect(K, Seen);
}

int RankClassComparer::decide(const Node &N, const RankClass &C) {
  const std::optional<CondExpr> &X = Conds.lookup(N.Source.Term);
  if (!X)
    return -1;
  auto V = evaluate(*X, C);
  if (!V)
    return -1;
  const ChoiceSource &Src = N.Source;
  unsigned Succ = 0;
  if (isa<SwitchStmt>(Src.Term)) {
    // The case whose value matches, else the default (or past the switch:
    // the last successor).
    std::optional<unsigned> Default;
    for (unsigned I = 0; I < Src.Succ.size(); ++I) {
      const Stmt *L = I < Src.Label.size() ? Src.Label[I] : nullptr;
      if (const auto *CS = dyn_cast_or_null<CaseStmt>(L)) {
        auto Lo = evaluateInt(E, CS->getLHS());
        auto Hi = CS->getRHS() ? evaluateInt(E, CS->getRHS()) : Lo;
        if (!Lo || !Hi)
          return -1;
        if (*V >= Lo->getExtValue() && *V <= Hi->getExtValue())
          return I;
      } else if (isa_and_nonnull<DefaultStmt>(L) ||
                 Src.Succ[I] + 1 == Src.NumSuccs) {
        Default = I;
      }
    }
    return Default ? int(*Default) : -1;
  }
  Succ = *V ? 0 : 1;
  if (N.Kind == NodeKind::Loop)
    return Succ == 1 ? 0 : -1; // Decided only when it never runs.
  for (unsigned I = 0; I < Src.Succ.size(); ++I)
    if (Src.Succ[I] == Succ)
      return I;
  return -1;
}

NodeRef
RankClassComparer::resolve(const NodeRef &N, const std::vector<int> &Decisions,
                           llvm::DenseMap<const Node *, NodeRef> &Memo) {
  if (N && N->Kind == NodeKind::Token) {
    // The class's names of its count and root arguments.
    auto Args = TokenArgs.find(N.get());
    if (Args == TokenArgs.end())
      return N;
    Token T = N->Tok;
    auto Rename = [&](const CondExpr &L, ArgKey &K) {
      if (L.K == CondExpr::Kind::Named &&
          (L.NamedOn < 0 || L.NamedOn == Class->Rank))
        K = ArgKey::named(L.Name);
    };
    Rename(Args->second.Count, T.Count);
    Rename(Args->second.Root, T.Root);
    return Node::token(std::move(T));
  }
  if (!N || N->Kids.empty())
    return N;
  auto Known = Memo.find(N.get());
  if (Known != Memo.end())
    return Known->second;
  NodeRef Out = N;
  auto Idx = ChoiceIndex.find(N.get());
  int Decision = Idx == ChoiceIndex.end() ? -1 : Decisions[Idx->second];
  std::optional<std::pair<uint64_t, bool>> Name;
  if (N->Kind == NodeKind::Alt && Decision >= 0) {
    Out = resolve(N->Kids[Decision], Decisions, Memo);
  } else if (N->Kind == NodeKind::Alt && Nameable.count(N.get()) &&
             (Name = atomName(Atoms.find(N->Source.Term)->second, *Class))) {
    NodeRef Yes = resolve(N->Kids[0], Decisions, Memo);
    NodeRef No = resolve(N->Kids[1], Decisions, Memo);
    if (Name->second)
      std::swap(Yes, No);
    Named.insert(N->Source.Term);
    Out = Node::alt(ChoiceKey{Name->first, /*Uniform=*/true}, {Yes, No},
                    N->Source);
  } else if (N->Kind == NodeKind::Loop && Decision == 0) {
    Out = Node::empty();
  } else {
    if (N->Kind == NodeKind::Alt && !N->Key.Uniform && N->Source.Term)
      Unnamed.insert(N->Source.Term);
    std::vector<NodeRef> Kids;
    bool Changed = false;
    for (const NodeRef &K : N->Kids) {
      Kids.push_back(resolve(K, Decisions, Memo));
      Changed = Changed || Kids.back() != K;
    }
    if (Changed) {
      switch (N->Kind) {
      case NodeKind::Seq:
        Out = Node::seq(std::move(Kids));
        break;
      case NodeKind::Call:
        Out = Node::call(N->Site, Kids.front());
        break;
      case NodeKind::Alt:
        Out = Node::alt(N->Key, std::move(Kids), N->Source);
        break;
      case NodeKind::Loop:
        Out = Node::loop(N->Key, Kids.front(), N->Source);
        break;
      default:
        break;
      }
    }
  }
  Memo[N.get()] = Out;
  return Out;
}

ClassComparison RankClassComparer::run(const FunctionDecl *FD) {
  ClassComparison Out;
  CalleeTrees Callees;
  NodeRef Tree = functionSequence(E, FD, Callees);
  if (!issuesAnything(Tree))
    return Out;
  llvm::SmallPtrSet<const Node *, 32> Seen;
  collect(Tree, Seen);
  // World sizes up to past the largest constant compared with; ranks: the
  // small ones and the last two.
  int64_t Largest = 2;
  for (const Node *N : Choices)
    Largest =
        std::max(Largest, Conds.lookup(N->Source.Term)->largestConstant());
  const int64_t MaxWorld = std::min<int64_t>(Largest + 2, 24);
  CompareBudget Budget;
  Budget.Steps = E.limits().SequenceSteps;
  std::vector<RankClass> Tried;
  for (int64_t W = 1; W <= MaxWorld && !Budget.Exhausted; ++W) {
    // Classes with the same decisions issue the same tree.
    std::map<std::vector<int>, RankClass> Distinct;
    for (int64_t R = 0; R < W; ++R) {
      if (R > Largest + 1 && R < W - 2)
        continue;
      RankClass C{R, W};
      Tried.push_back(C);
      std::vector<int> Decisions;
      for (const Node *N : Choices)
        Decisions.push_back(decide(*N, C));
      // A rank that names values the others cannot (a broadcast's root)
      // is a class of its own.
      Decisions.push_back(NamingRanks.count(R) ? int(R) : -1);
      Distinct.try_emplace(std::move(Decisions), C);
    }
    std::vector<std::pair<NodeRef, RankClass>> Trees;
    for (const auto &[Decisions, C] : Distinct) {
      llvm::DenseMap<const Node *, NodeRef> Memo;
      Class = &C;
      Trees.push_back({resolve(Tree, Decisions, Memo), C});
    }
    std::vector<bool> Talks;
    for (const auto &Tree : Trees)
      Talks.push_back(issuesPointToPoint(Tree.first));
    unsigned Talking = llvm::count(Talks, true);
    for (size_t I = 0; I < Trees.size() && !Budget.Exhausted; ++I)
      for (size_t J = I + 1; J < Trees.size() && !Budget.Exhausted; ++J) {
        bool OthersTalk = Talking > unsigned(Talks[I]) + unsigned(Talks[J]);
        auto D = firstDifference(Trees[I].first, Trees[J].first, Budget,
                                 &Out.Trace, OthersTalk);
        if (!D)
          continue;
        auto Note = [&](const Side &Here, const Side &Other, RankClass A,
                        RankClass B) {
          if (Here.Tok && Here.Site)
            Out.AtDifference.try_emplace(
                Here.Site, ClassComparison::Witness{
                               A, B, Other.Tok ? Other.Site : nullptr});
        };
        Note(D->A, D->B, Trees[I].second, Trees[J].second);
        Note(D->B, D->A, Trees[J].second, Trees[I].second);
      }
  }
  if (Budget.Exhausted) {
    noteBudgetHit(E, "rank-class comparison steps", FD);
    return Out;
  }
  Out.Finished = true;
  for (const auto &[Term, X] : Conds) {
    if (!X)
      continue;
    bool All = true;
    for (const RankClass &C : Tried)
      All = All && evaluate(*X, C).has_value();
    if (All)
      Out.Decided.insert(Term);
  }
  // Branches every class that reaches them made by the names of the values
  // they test.
  for (const Stmt *Term : Named)
    if (!Unnamed.count(Term))
      Out.Decided.insert(Term);
  return Out;
}

const ClassComparison &compareRankClasses(Engine &E, const FunctionDecl *FD) {
  auto &Cache = RankClassComparer::cache(E);
  auto It = Cache.find(FD);
  if (It != Cache.end())
    return *It->second;
  auto Result = std::make_unique<ClassComparison>(RankClassComparer(E).run(FD));
  return *(Cache[FD] = std::move(Result));
}

bool ruledOutByRankClasses(Engine &E, const FunctionDecl *FD,
                           const Stmt *Branch, const CallExpr *Collective) {
  if (!FD || !Branch)
    return false;
  const ClassComparison &C = compareRankClasses(E, FD);
  return C.Finished && C.Decided.count(Branch) &&
         C.Trace.Matched.count(Collective) &&
         !C.Trace.AfterDifference.count(Collective);
}

bool argumentAgreedByRankClasses(Engine &E, const FunctionDecl *FD,
                                 const CallExpr *Collective, int ArgIndex) {
  if (!FD)
    return false;
  const ClassComparison &C = compareRankClasses(E, FD);
  auto It = C.Trace.NamedAlike.find({Collective, ArgIndex});
  return C.Finished && It != C.Trace.NamedAlike.end() && It->second &&
         C.Trace.Matched.count(Collective) &&
         !C.Trace.AfterDifference.count(Collective);
}

const ClassComparison::Witness *rankClassWitness(Engine &E,
                                                 const FunctionDecl *FD,
                                                 const CallExpr *Collective) {
  if (!FD)
    return nullptr;
  const ClassComparison &C = compareRankClasses(E, FD);
  auto It = C.AtDifference.find(Collective);
  return It == C.AtDifference.end() ? nullptr : &It->second;
}

} // namespace collectives
} // namespace distlint
