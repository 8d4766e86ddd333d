//===- LatticeTest.cpp - Laws of the uniformity lattice -------------------===//
//
// Join of Taint and of VarState must be commutative, associative and
// idempotent, with a <= a join b (order: a <= b iff a join b == b), and the
// empty VarState must be the identity. Checked over every combination of a
// generated set of values (all flag combinations, ranges linear in W).
//
//===----------------------------------------------------------------------===//
#include "engine/lattice/Taint.h"
#include "engine/lattice/VarState.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

#include <vector>

using namespace distlint;

namespace {

std::vector<Taint> generatedValues() {
  std::vector<std::optional<IntRange>> Ranges = {
      std::nullopt,
      IntRange{{0, 0}, {0, 0}},  // 0
      IntRange{{0, 0}, {1, -1}}, // a rank: [0, W-1]
      IntRange{{1, 0}, {1, 0}},  // W
      IntRange{{1, -2}, {1, 3}}, // incomparable with the constants
      IntRange{{0, -5}, {0, 7}},
  };
  std::vector<Taint> Out;
  for (unsigned Bits = 0; Bits < 64; ++Bits)
    for (const auto &R : Ranges) {
      if ((Bits & 3) == 3 && R && R->Lo.W)
        continue; // keep the set small: not every flag with every range
      Taint T;
      T.Vary = Bits & 1;
      T.Params = (Bits & 2) ? 0b101 : ((Bits & 32) ? 0b010 : 0);
      T.UniformContent = Bits & 4;
      T.ContentOnly = Bits & 8;
      T.NonNull = Bits & 16;
      T.LauncherVar = (Bits >> 4) & 3;
      T.Range = R;
      Out.push_back(T);
    }
  return Out;
}

Taint joined(Taint A, const Taint &B) {
  A.join(B);
  return A;
}
bool leq(const Taint &A, const Taint &B) { return joined(A, B).sameAs(B); }

TEST(TaintLattice, JoinIsCommutativeIdempotentAndAnUpperBound) {
  auto Values = generatedValues();
  ASSERT_GT(Values.size(), 200u);
  for (const Taint &A : Values) {
    EXPECT_TRUE(joined(A, A).sameAs(A));
    for (const Taint &B : Values) {
      Taint AB = joined(A, B), BA = joined(B, A);
      ASSERT_TRUE(AB.sameAs(BA));
      ASSERT_TRUE(leq(A, AB));
      ASSERT_TRUE(leq(B, AB));
    }
  }
}

TEST(TaintLattice, JoinIsAssociative) {
  auto Values = generatedValues();
  for (size_t I = 0; I < Values.size(); I += 3)
    for (size_t J = 1; J < Values.size(); J += 5)
      for (size_t K = 2; K < Values.size(); K += 7) {
        const Taint &A = Values[I], &B = Values[J], &C = Values[K];
        ASSERT_TRUE(joined(joined(A, B), C).sameAs(joined(A, joined(B, C))));
      }
}

TEST(TaintLattice, JoinIsMonotone) {
  auto Values = generatedValues();
  for (size_t I = 0; I < Values.size(); I += 2)
    for (size_t J = 0; J < Values.size(); J += 3) {
      const Taint &A = Values[I], &B = Values[J];
      if (!leq(A, B))
        continue;
      for (size_t K = 0; K < Values.size(); K += 11)
        ASSERT_TRUE(leq(joined(A, Values[K]), joined(B, Values[K])));
    }
}

TEST(TaintLattice, RangeHullHoldsBothForEveryWorldSize) {
  IntRange Rank{{0, 0}, {1, -1}}, Odd{{1, -2}, {1, 3}};
  IntRange H = hull(Rank, Odd);
  for (int64_t W = 1; W < 50; ++W)
    for (const IntRange &R : {Rank, Odd}) {
      EXPECT_LE(H.Lo.W * W + H.Lo.C, R.Lo.W * W + R.Lo.C);
      EXPECT_GE(H.Hi.W * W + H.Hi.C, R.Hi.W * W + R.Hi.C);
    }
  // Comparable bounds: the hull is the dominating one, not a looser one.
  IntRange Zero{{0, 0}, {0, 0}};
  EXPECT_TRUE(hull(Zero, Rank) == Rank);
}

TEST(TaintLattice, VaryingWinsAndKeepsItsOrigin) {
  Taint U = Taint::constant(3);
  Taint V = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank");
  Taint J = joined(U, V);
  EXPECT_TRUE(J.Vary);
  EXPECT_EQ(J.Origin.What, "rank");
  EXPECT_FALSE(J.Range.has_value()) << "a varying value has no common range";
  EXPECT_FALSE(joined(U, Taint::constant(3)).Vary);
  EXPECT_TRUE(joined(U, Taint::constant(5)).Range ==
              (IntRange{{0, 3}, {0, 5}}));
}

std::vector<VarState> generatedStates(const std::vector<Taint> &Values) {
  // Fake variable keys: the lattice only compares the pointers.
  static const char Keys[3] = {};
  auto Var = [&](int I) {
    return reinterpret_cast<const clang::VarDecl *>(&Keys[I]);
  };
  std::vector<VarState> Out{VarState{}};
  for (size_t I = 0; I + 2 < Values.size(); I += 37) {
    Out.push_back({{Var(0), Values[I]}});
    Out.push_back({{Var(0), Values[I + 1]}, {Var(2), Values[I + 2]}});
    Out.push_back({{Var(1), Values[I + 2]}, {Var(2), Values[I]}});
  }
  return Out;
}

TEST(VarStateLattice, EmptyIsBottomAndJoinFollowsTheLaws) {
  auto States = generatedStates(generatedValues());
  ASSERT_GT(States.size(), 10u);
  for (const VarState &A : States) {
    EXPECT_TRUE(sameState(joinStates(A, {}), A));
    EXPECT_TRUE(sameState(joinStates({}, A), A));
    EXPECT_TRUE(sameState(joinStates(A, A), A));
    for (const VarState &B : States) {
      ASSERT_TRUE(sameState(joinStates(A, B), joinStates(B, A)));
      for (const VarState &C : States)
        ASSERT_TRUE(sameState(joinStates(joinStates(A, B), C),
                              joinStates(A, joinStates(B, C))));
    }
  }
}

TEST(VarStateLattice, WideningDropsOnlyRangesThatStillChange) {
  static const char Keys[2] = {};
  auto *X = reinterpret_cast<const clang::VarDecl *>(&Keys[0]);
  auto *Y = reinterpret_cast<const clang::VarDecl *>(&Keys[1]);
  VarState Old{{X, Taint::constant(1)}, {Y, Taint::constant(7)}};
  VarState New = joinStates(Old, {{X, Taint::constant(2)}});
  widenState(Old, New);
  EXPECT_FALSE(New[X].Range.has_value());
  EXPECT_TRUE(New[Y].Range == (IntRange{{0, 7}, {0, 7}}));
}

} // namespace
