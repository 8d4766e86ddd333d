//===- RankConditions.cpp - Branch conditions as functions of the rank ----===//
#include "engine/collectives/RankConditions.h"
#include "engine/EngineInternals.h"
#include "engine/Values.h"
#include "engine/ast/AstHelpers.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {
namespace collectives {

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
  Decision D = decisionOf(T);
  return D.DeclaresVariable || D.IsRangeFor ? nullptr : D.Cond;
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
std::optional<AtomName> atomName(const CondExpr &X, const RankClass &C) {
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
  // A comparison and its negation test one atom: `a != b` is `!(a == b)`,
  // `a >= b` is `!(a < b)`, `a > b` is `!(a <= b)`.
  unsigned Op = A->K == K::Binary ? A->Op : 0;
  if (A->K == K::Binary) {
    if (A->Op == BO_NE || A->Op == BO_GE || A->Op == BO_GT)
      Flipped = !Flipped;
    Op = A->Op == BO_NE   ? BO_EQ
         : A->Op == BO_GE ? BO_LT
         : A->Op == BO_GT ? BO_LE
                          : A->Op;
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
  AtomName Out;
  Out.Flipped = Flipped;
  if (A->K == K::Binary && A->Kids.size() == 2) {
    auto L = Hash(A->Kids[0]), R = Hash(A->Kids[1]);
    if (!L || !R || !AnyName)
      return std::nullopt;
    // `value == constant`: one choice of that value (ChoiceKey::Subject).
    bool LConst = A->Kids[0].K == K::Value, RConst = A->Kids[1].K == K::Value;
    if (Op == BO_EQ && LConst != RConst) {
      Out.Subject = llvm::hash_combine(BO_EQ, RConst ? *L : *R);
      Out.Id = llvm::hash_combine(Out.Subject, RConst ? *R : *L);
      return Out;
    }
    Out.Id = llvm::hash_combine(3, unsigned(K::Binary), Op, *L, *R);
    return Out;
  }
  // A truth test `x` is `!(x == 0)`: one choice of x with its tests
  // against constants.
  auto H = Hash(*A);
  if (!H || !AnyName)
    return std::nullopt;
  Out.Flipped = !Flipped;
  Out.Subject = llvm::hash_combine(BO_EQ, *H);
  Out.Id = llvm::hash_combine(Out.Subject, llvm::hash_combine(1, 0, 0));
  return Out;
}

namespace {

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
    // A helper's parameter that every call gives the rank: the rank.
    if (const auto *PD = dyn_cast_or_null<ParmVarDecl>(VD);
        PD && T.Params && !T.Vary && E.rankAtEveryCall(PD)) {
      Out.K = CondExpr::Kind::Rank;
      return Out;
    }
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

CondExpr buildCondition(Engine &E, UniformityAnalysis &U, const VarState &S,
                        const Expr *X) {
  return CondBuilder(E, U, S).build(X);
}

} // namespace collectives
} // namespace distlint
