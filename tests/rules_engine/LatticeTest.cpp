//===- LatticeTest.cpp - Laws of the uniformity lattice -------------------===//
//
// Join of Taint and of VarState must be commutative, associative,
// idempotent and monotone, with a <= a join b (order: a <= b iff
// a join b == b), and the empty VarState (every variable bottom: not
// assigned on any path seen) must be the identity; Taint itself has no
// bottom (LauncherVar, ShapeKey and ValueKey are flat). The path merge (pending
// implicit flows) must not depend on the order of the paths. Checked over a
// generated set covering every component of Taint.
//
//===----------------------------------------------------------------------===//
#include "engine/lattice/Taint.h"
#include "engine/lattice/VarState.h"

#include "clang/AST/ASTContext.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <vector>

using namespace distlint;

namespace {

/// Values of every component of Taint, combined by a mixed-radix walk with
/// a stride coprime to each radix, so every pair of component values meets
/// in some generated Taint (the set is a sample of the full product).
std::vector<Taint> generatedValues() {
  std::vector<std::optional<IntRange>> Ranges = {
      std::nullopt,
      IntRange{{0, 0}, {0, 0}},  // 0
      IntRange{{0, 4}, {0, 4}},  // 4
      IntRange{{0, 0}, {1, -1}}, // a rank: [0, W-1]
      IntRange{{1, 0}, {1, 0}},  // W
      IntRange{{1, -2}, {1, 3}}, // incomparable with the constants
      IntRange{{0, -5}, {0, 7}},
  };
  const uint64_t ParamMasks[] = {0, 0b101, 0b010};
  const uint64_t ShapeKeys[] = {0, 11, 42};
  const uint64_t ValueKeys[] = {0, 17, 99};
  const uint64_t MessageKeys[] = {0, 23, 57};
  // (RootKey, RootRank): none, or element 31 sent by rank 0 or by rank 1.
  const std::pair<uint64_t, int64_t> RootKeys[] = {{0, -1}, {31, 0}, {31, 1}};
  static const char CopySource = 0;
  const auto *Copied = reinterpret_cast<const clang::VarDecl *>(&CopySource);
  const auto *CopiedField =
      reinterpret_cast<const clang::FieldDecl *>(&CopySource);
  const uint8_t Dims[] = {Taint::AllDims, 0b1, 0b110};
  const uint64_t Radix[] = {2, 3, 2, 2, 2, 2, 3, 7, 3, 2,
                            3, 2, 2, 3, 3, 3, 3, 3, 3};
  uint64_t Product = 1;
  for (uint64_t R : Radix)
    Product *= R;
  std::vector<Taint> Out;
  auto Make = [&](uint64_t N) {
    unsigned D[19];
    for (int I = 0; I < 19; ++I) {
      D[I] = unsigned(N % Radix[I]);
      N /= Radix[I];
    }
    Taint T;
    T.Vary = D[0];
    if (T.Vary)
      T.Origin = VaryOrigin{VaryKind::Rank, clang::SourceLocation(), "rank"};
    T.Params = ParamMasks[D[1]];
    T.UniformContent = D[2];
    T.ContentOnly = D[3];
    T.PointeeOnly = D[4];
    T.NonNull = D[5];
    T.LauncherVar = LauncherVariable(D[6]);
    T.Range = Ranges[D[7]];
    T.ShapeKey = ShapeKeys[D[8]];
    T.PendingVary = D[9];
    if (T.PendingVary)
      T.PendingOrigin =
          VaryOrigin{VaryKind::Rank, clang::SourceLocation(), "rank"};
    T.PendingParams = ParamMasks[D[10]];
    T.ShapePending = D[11];
    T.IsRank = D[12];
    T.ValueKey = ValueKeys[D[13]];
    T.MessageKey = MessageKeys[D[14]];
    T.RootKey = RootKeys[D[15]].first;
    T.RootRank = RootKeys[D[15]].second;
    T.CopyOf = D[16] == 1 ? Copied : nullptr;
    T.CopyOfField = D[16] == 2 ? CopiedField : nullptr;
    // Some of the parameters reach the elements only (a subset of Params).
    T.ElementParams =
        (D[16] ? T.Params & 0b100 : 0) | (D[3] ? T.Params & 0b011 : 0);
    // Some decide the shape by their values (a subset of Params).
    T.ShapeParams = D[11] ? T.Params & 0b110 : 0;
    // Some reach it through their shapes only (a subset of Params).
    T.SizeParams = D[17] == 1 ? T.Params & 0b001 : D[17] == 2 ? T.Params : 0;
    // The dimensions that differ, where the shape does.
    T.VaryingDims = Dims[D[18]];
    return T;
  };
  // 1000003 is prime, so coprime to every radix, and large enough that the
  // highest digits take every value too: consecutive samples change
  // every component.
  for (uint64_t I = 0; I < 400; ++I)
    Out.push_back(Make((I * 1000003) % Product));
  // Each component alone, against the default value.
  for (int I = 0, Mul = 1; I < 19; Mul *= int(Radix[I]), ++I)
    for (uint64_t V = 1; V < Radix[I]; ++V)
      Out.push_back(Make(V * uint64_t(Mul)));
  return Out;
}

/// The values the transfer functions produce (the path merge is defined on
/// these): a pending implicit flow is a single value, a pending shape
/// comparison a varying tensor of a known shape.
bool wellFormed(const Taint &T) {
  if ((T.PendingVary || T.PendingParams) && !T.knownValue())
    return false;
  if (T.ShapePending && ((!T.Vary && !T.PendingVary) || !T.ShapeKey))
    return false;
  // A known shape assigned under a varying branch is compared where the
  // paths meet (addControl marks both).
  if (T.PendingVary && T.ShapeKey && !T.ShapePending)
    return false;
  return true;
}

std::vector<Taint> wellFormedValues() {
  std::vector<Taint> Out;
  for (Taint T : generatedValues()) {
    // Drop the pending flags that the value cannot carry.
    if (!T.knownValue()) {
      T.PendingVary = false;
      T.PendingOrigin = VaryOrigin();
      T.PendingParams = 0;
    }
    if (!T.Vary || !T.ShapeKey)
      T.ShapePending = false;
    if (T.PendingVary && T.ShapeKey)
      T.ShapePending = true;
    Out.push_back(T);
  }
  // Pending single values, as addControl makes them.
  for (int64_t V : {0, 4, 7})
    for (bool ByParam : {false, true}) {
      Taint T = Taint::constant(V);
      Taint Ctl = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "r");
      if (ByParam) {
        Ctl = Taint();
        Ctl.Params = 0b10;
      }
      T.addControl(Ctl);
      Out.push_back(T);
    }
  // Pending named values (`rows = cfg.vocab` under a rank branch), also of
  // a known shape (`w = copy` of a sequence: its length is compared too).
  for (uint64_t Key : {17, 99})
    for (uint64_t Shape : {0, 11}) {
      Taint T;
      T.ValueKey = Key;
      T.ShapeKey = Shape;
      T.addControl(
          Taint::varying(VaryKind::Rank, clang::SourceLocation(), "r"));
      Out.push_back(T);
    }
  return Out;
}

Taint joined(Taint A, const Taint &B) {
  A.join(B);
  return A;
}
bool leq(const Taint &A, const Taint &B) { return joined(A, B).sameAs(B); }

TEST(TaintLattice, GeneratedValuesCoverEveryComponent) {
  auto Values = generatedValues();
  auto Takes = [&](auto Pred) {
    return std::count_if(Values.begin(), Values.end(), Pred) > 10;
  };
  EXPECT_TRUE(Takes([](const Taint &T) { return T.Vary && T.PointeeOnly; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.Vary && T.ContentOnly; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.ShapeKey == 11; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.ShapeKey == 42; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.ShapePending; }));
  EXPECT_TRUE(Takes([](const Taint &T) {
    return T.ElementParams && T.ElementParams != T.Params;
  }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.ShapeParams; }));
  EXPECT_TRUE(Takes(
      [](const Taint &T) { return T.SizeParams && T.SizeParams != T.Params; }));
  EXPECT_TRUE(Takes([](const Taint &T) {
    return T.shapeVaries() && T.VaryingDims == 0b110;
  }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.PendingVary; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.PendingParams == 0b101; }));
  EXPECT_TRUE(Takes([](const Taint &T) {
    return T.LauncherVar == LauncherVariable::WorldSize;
  }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.UniformContent; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.NonNull && T.Range; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.singleValue(); }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.IsRank && T.Vary; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.ValueKey == 17; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.MessageKey == 57; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.RootRank == 1; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.CopyOf != nullptr; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.CopyOfField != nullptr; }));
  EXPECT_TRUE(Takes([](const Taint &T) { return T.knownValue() && T.ValueKey; }));
  auto Merged = wellFormedValues();
  EXPECT_GT(std::count_if(Merged.begin(), Merged.end(),
                          [](const Taint &T) { return T.PendingVary; }),
            3);
  EXPECT_GT(std::count_if(Merged.begin(), Merged.end(),
                          [](const Taint &T) { return T.ShapePending; }),
            10);
}

TEST(TaintLattice, JoinIsCommutativeIdempotentAndAnUpperBound) {
  auto Values = generatedValues();
  ASSERT_GT(Values.size(), 400u);
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
  // Comparable pairs a <= b: the values and their joins with others.
  auto Values = generatedValues();
  for (size_t I = 0, N = Values.size(); I < N; I += 17)
    for (size_t J = 0; J < N; J += 29)
      Values.push_back(joined(Values[I], Values[J]));
  unsigned Comparable = 0;
  for (size_t I = 0; I < Values.size(); I += 2)
    for (size_t J = 0; J < Values.size(); J += 3) {
      const Taint &A = Values[I], &B = Values[J];
      if (!leq(A, B))
        continue;
      ++Comparable;
      for (size_t K = 0; K < Values.size(); K += 11)
        ASSERT_TRUE(leq(joined(A, Values[K]), joined(B, Values[K])));
    }
  EXPECT_GT(Comparable, 500u);
}

Taint merged(Taint A, const Taint &B) {
  A.mergePaths(B);
  return A;
}

// The path merge is applied pairwise to the predecessors of a block, in
// whatever order the CFG lists them: it must not depend on that order.
TEST(TaintPathMerge, CommutativeAssociativeAndIdempotent) {
  auto Values = wellFormedValues();
  ASSERT_GT(Values.size(), 400u);
  for (const Taint &A : Values) {
    ASSERT_TRUE(wellFormed(A));
    ASSERT_TRUE(merged(A, A).sameAs(A));
    for (const Taint &B : Values) {
      Taint AB = merged(A, B);
      ASSERT_TRUE(AB.sameAs(merged(B, A)));
      ASSERT_TRUE(wellFormed(AB));
    }
  }
  for (size_t I = 0; I < Values.size(); I += 3)
    for (size_t J = 1; J < Values.size(); J += 4)
      for (size_t K = 0; K < Values.size(); K += 7) {
        const Taint &A = Values[I], &B = Values[J], &C = Values[K];
        ASSERT_TRUE(merged(merged(A, B), C).sameAs(merged(A, merged(B, C))));
      }
}

// x = 5; if (rank == 0) { if (c) x = 4; else x = 4; }: the inner arms and
// the other ranks' path meet in one block, merged in any order.
TEST(TaintPathMerge, SameValueUnderARankBranchIsDecidedOnlyWhenItCloses) {
  Taint Rank = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "r");
  Taint Four = Taint::constant(4);
  Four.addControl(Rank);
  ASSERT_TRUE(Four.PendingVary);
  Taint Five = Taint::constant(5);
  for (Taint T :
       {merged(merged(Four, Four), Five), merged(Four, merged(Four, Five)),
        merged(merged(Five, Four), Four)}) {
    T.decidePending(Taint());
    EXPECT_TRUE(T.Vary);
  }
  // Both arms assign 4: uniform where the branch closes, still pending in
  // an inner join that the rank branch controls.
  Taint Both = merged(Four, Four);
  Taint Inner = Both;
  Inner.decidePending(Rank);
  EXPECT_TRUE(Inner.PendingVary);
  EXPECT_TRUE(merged(Inner, Five).Vary);
  Both.decidePending(Taint());
  EXPECT_FALSE(Both.Vary);
  EXPECT_FALSE(Both.PendingVary);
  EXPECT_TRUE(Both.singleValue());
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

TEST(TaintLattice, TheRankStaysTheRankOnlyWhereEveryPathHoldsIt) {
  Taint Rank = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank");
  Rank.IsRank = true;
  Taint Other = Rank;
  Other.IsRank = false; // rank + 1: varies the same way, another value
  EXPECT_TRUE(joined(Rank, Rank).IsRank);
  EXPECT_FALSE(joined(Rank, Other).IsRank);
  EXPECT_FALSE(joined(Other, Rank).IsRank);
  EXPECT_FALSE(Rank.sameAs(Other));
  // A variable assigned the rank on one path only holds its initial value
  // on the other.
  VarState A, B;
  const auto *VD = reinterpret_cast<const clang::VarDecl *>(0x10);
  A[VD] = Rank;
  EXPECT_FALSE(mergePathStates(A, B)[VD].IsRank);
  B[VD] = Rank;
  EXPECT_TRUE(mergePathStates(A, B)[VD].IsRank);
}

TEST(TaintLattice, ElementParamsAreThoseThatReachOnlyElementsEverywhere) {
  // A buffer of length n (parameter 0) with loss (parameter 1) written
  // into an element: its length depends on n only.
  Taint Buffer;
  Buffer.Params = 0b01;
  Taint Element;
  Element.Params = 0b10;
  Element.ElementParams = 0b10;
  Taint J = joined(Buffer, Element);
  EXPECT_EQ(J.Params, 0b11u);
  EXPECT_EQ(J.ElementParams, 0b10u);
  // Where loss decides the length on another path, it is whole.
  Taint Resized;
  Resized.Params = 0b10;
  EXPECT_EQ(joined(J, Resized).ElementParams, 0u);
  // So does a branch on it.
  Taint Ctl;
  Ctl.Params = 0b10;
  J.addControl(Ctl);
  EXPECT_EQ(J.ElementParams, 0u);
  for (const Taint &T : generatedValues())
    for (const Taint &O : generatedValues()) {
      Taint M = joined(T, O);
      ASSERT_EQ(M.ElementParams & ~M.Params, 0u);
    }
}

TEST(TaintLattice, ElementParamsGiveOnlyTheContents) {
  // `std::vector<double> g(16); g[0] = start; return g;`: parameter 0
  // reaches the elements only, parameter 1 (`g.resize(n)`) the length too.
  Taint Result;
  Result.Params = 0b11;
  Result.ElementParams = 0b01;
  Taint Rank =
      Taint::varying(VaryKind::Rank, clang::SourceLocation(), "the rank");
  Rank.IsRank = true;
  Taint ByElement = Result.argumentTaint(0, Rank);
  EXPECT_TRUE(ByElement.Vary);
  EXPECT_TRUE(ByElement.ContentOnly);
  EXPECT_FALSE(ByElement.IsRank);
  EXPECT_FALSE(Result.argumentTaint(1, Rank).ContentOnly);
  // Where the parameter's values also decide the shape, they win.
  Result.ShapeParams = 0b01;
  EXPECT_FALSE(Result.argumentTaint(0, Rank).ContentOnly);
  EXPECT_FALSE(Result.argumentTaint(0, Taint()).Vary);
}

TEST(TaintLattice, ShapeParamsMakeAnArgumentsValuesItsShape) {
  // `(p.abs() > t).nonzero()` of parameter 1, joined with parameter 0.
  Taint Selected;
  Selected.Params = 0b10;
  Selected.ShapeParams = 0b10;
  Taint Other;
  Other.Params = 0b01;
  Taint J = joined(Other, Selected);
  EXPECT_EQ(J.ShapeParams, 0b10u);
  // A gradient whose values differ: through parameter 1 the result's shape
  // differs, through parameter 0 only its values.
  Taint Grad = Taint::varying(VaryKind::LocalData, clang::SourceLocation(),
                              "local gradient");
  Grad.ContentOnly = true;
  EXPECT_FALSE(J.argumentTaint(1, Grad).ContentOnly);
  EXPECT_TRUE(J.argumentTaint(0, Grad).ContentOnly);
  EXPECT_TRUE(J.argumentTaint(1, Grad).Vary);
  // An agreed argument stays agreed.
  EXPECT_FALSE(J.argumentTaint(1, Taint()).Vary);
  for (const Taint &T : generatedValues())
    for (const Taint &O : generatedValues())
      ASSERT_EQ(joined(T, O).ShapeParams, T.ShapeParams | O.ShapeParams);
}

TEST(TaintLattice, SizeParamsAreThoseReadOnlyThroughTheirShapes) {
  // `n = x.size(0)` of parameter 0, joined with the counter stepped by
  // parameter 1 (a value): x stays known by its shape, the step does not.
  Taint Rows;
  Rows.Params = 0b01;
  Rows.SizeParams = 0b01;
  Taint Step;
  Step.Params = 0b10;
  Taint Cond = joined(Rows, Step);
  EXPECT_EQ(Cond.SizeParams, 0b01u);
  // A value of x read too (`x[0].item()`) makes x a value there.
  Taint Value;
  Value.Params = 0b01;
  EXPECT_EQ(joined(Cond, Value).SizeParams, 0u);
  // Under a loop over x's rows, a counter knows x by its shape only.
  Taint Counter = Taint::constant(0);
  Counter.ValueKey = 0;
  Counter.Range.reset();
  Counter.addControl(Rows);
  EXPECT_EQ(Counter.SizeParams, 0b01u);
  // An argument whose values alone differ leaves such a value alone; one
  // whose shape differs does not.
  Taint Shard = Taint::varying(VaryKind::LocalData, clang::SourceLocation(),
                               "local rows");
  Shard.ContentOnly = true;
  EXPECT_FALSE(Cond.argumentTaint(0, Shard).Vary);
  Shard.ContentOnly = false;
  EXPECT_TRUE(Cond.argumentTaint(0, Shard).Vary);
  for (const Taint &T : generatedValues())
    for (const Taint &O : generatedValues())
      ASSERT_EQ(joined(T, O).SizeParams & ~(T.Params | O.Params), 0u);
}

TEST(TaintLattice, VaryingDimsAreTheUnionOfThoseThatDiffer) {
  auto Rows = [](uint8_t Dims) {
    Taint T = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank");
    T.VaryingDims = Dims;
    return T;
  };
  // Local rows beside a tensor whose columns differ: both dimensions.
  EXPECT_EQ(joined(Rows(0b01), Rows(0b10)).varyingDims(), 0b11);
  // Joined with values that differ only in content, or agree: its own.
  Taint Content = Rows(Taint::AllDims);
  Content.ContentOnly = true;
  EXPECT_EQ(joined(Rows(0b01), Content).varyingDims(), 0b01);
  EXPECT_EQ(joined(Taint(), Rows(0b01)).varyingDims(), 0b01);
  EXPECT_EQ(joined(Content, Taint()).varyingDims(), 0);
  // Assigned under a branch that differs: any dimension may.
  Taint Chosen = Rows(0b01);
  Chosen.addControl(
      Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank"));
  EXPECT_EQ(Chosen.varyingDims(), Taint::AllDims);
  EXPECT_EQ(Taint::dimBit(0), 0b1);
  EXPECT_EQ(Taint::dimBit(9), 0x80);
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

TEST(VarStateLattice, PathMergeDoesNotDependOnThePathOrder) {
  auto States = generatedStates(wellFormedValues());
  ASSERT_GT(States.size(), 10u);
  for (const VarState &A : States)
    for (const VarState &B : States) {
      ASSERT_TRUE(sameState(mergePathStates(A, B), mergePathStates(B, A)));
      for (const VarState &C : States) {
        ASSERT_TRUE(sameState(mergePathStates(mergePathStates(A, B), C),
                              mergePathStates(A, mergePathStates(B, C))));
      }
    }
}

/// States that also know fields agreed on the path (VarState.h): field
/// entries are must-facts, kept by a merge only where both sides hold them.
std::vector<VarState> statesWithFields(const std::vector<Taint> &Values) {
  static const char Keys[4] = {};
  auto *V = reinterpret_cast<const clang::VarDecl *>(&Keys[0]);
  auto *F = reinterpret_cast<const clang::FieldDecl *>(&Keys[1]);
  auto *G = reinterpret_cast<const clang::FieldDecl *>(&Keys[2]);
  std::vector<VarState> Out;
  for (size_t I = 0; I + 2 < Values.size(); I += 41) {
    Out.push_back({{V, Values[I]}, {StateKey(V, F), Values[I + 1]}});
    Out.push_back({{StateKey(V, F), Values[I + 2]}, {StateKey(V, G), Values[I]}});
    Out.push_back({{V, Values[I + 1]}});
    // Element entries (`B[8] = n`) are parts too.
    Out.push_back({{V, Values[I]}, {StateKey::element(V, 8), Values[I + 2]}});
    // A path of a one-rank world (`if (size == 1) ...`) carries its mark.
    VarState One{{V, Values[I + 1]}, {StateKey(V, F), Values[I]}};
    makeSingleRank(One);
    Out.push_back(One);
    // A path only rank 0 (or 1) takes: its element copies outlive a merge
    // with the others' paths, for that rank alone.
    Taint Copy = Values[I + 2];
    Copy.CopyOf = V;
    VarState Root{{V, Values[I]}, {StateKey::element(V, 8), Copy}};
    markRootOnly(Root, I % 2);
    Out.push_back(Root);
    // The path of every other rank.
    VarState Others{{V, Values[I + 1]}};
    markExceptRank(Others, I % 2);
    Out.push_back(Others);
  }
  return Out;
}

TEST(VarStateLattice, OneRankWorldHoldsOnlyWhereEveryPathIsInIt) {
  static const char Key = 0;
  auto *V = reinterpret_cast<const clang::VarDecl *>(&Key);
  VarState Many{
      {V, Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank")}};
  Many[V].Params = 1;
  VarState One = Many;
  makeSingleRank(One);
  EXPECT_TRUE(inOneRankWorld(One));
  EXPECT_FALSE(One[V].Vary) << "one rank agrees with itself";
  EXPECT_EQ(One[V].Params, 0u) << "whatever the caller passes";
  Taint Rank = Taint::varying(VaryKind::Rank, clang::SourceLocation(), "rank");
  Rank.IsRank = true;
  agreeInOneRankWorld(Rank);
  EXPECT_TRUE(Rank.Vary && Rank.IsRank) << "the rank keeps its facts";
  EXPECT_FALSE(inOneRankWorld(Many));
  EXPECT_TRUE(inOneRankWorld(mergePathStates(One, One)));
  EXPECT_FALSE(inOneRankWorld(mergePathStates(One, Many)));
  EXPECT_FALSE(inOneRankWorld(mergePathStates(Many, One)));
  EXPECT_TRUE(mergePathStates(One, Many)[V].Vary)
      << "a value that meets a path of a larger world may differ";
}

std::string dumpState(const VarState &S) {
  std::string Out;
  for (const auto &[K, T] : S)
    Out += "[" + std::to_string(K.Index) + (K.Field ? "f" : "") +
           (K.Var ? "v" : "") + " vary=" + std::to_string(T.Vary) +
           " rr=" + std::to_string(T.RootRank) +
           " rk=" + std::to_string(T.RootKey) +
           " copy=" + std::to_string(T.CopyOf != nullptr) +
           " pend=" + std::to_string(T.PendingVary) +
           " vk=" + std::to_string(T.ValueKey) +
           (T.Range ? " r=" + std::to_string(T.Range->Lo.W) + "," +
                          std::to_string(T.Range->Lo.C) + ".." +
                          std::to_string(T.Range->Hi.W) + "," +
                          std::to_string(T.Range->Hi.C)
                    : std::string(" r=none")) +
           "]";
  return Out;
}

TEST(VarStateLattice, RootOnlyCopiesHoldForThatRankAlone) {
  static const char Keys[2] = {};
  auto *Buf = reinterpret_cast<const clang::VarDecl *>(&Keys[0]);
  auto *N = reinterpret_cast<const clang::VarDecl *>(&Keys[1]);
  Taint Copy;
  Copy.CopyOf = N;
  // `if (rank == 0) buf[0] = n;` meets the path of the other ranks.
  VarState Root{{StateKey::element(Buf, 0), Copy}}, Others, Anyone;
  markRootOnly(Root, 0);
  markExceptRank(Others, 0);
  EXPECT_EQ(rootOnlyRank(Root), std::optional<int64_t>(0));
  EXPECT_EQ(Root[StateKey::element(Buf, 0)].RootRank, 0);
  EXPECT_FALSE(mergePathStates(Root, Anyone).count(StateKey::element(Buf, 0)))
      << "rank 0 may come by the other path too";
  VarState Met = mergePathStates(Root, Others);
  ASSERT_TRUE(Met.count(StateKey::element(Buf, 0)));
  EXPECT_EQ(Met[StateKey::element(Buf, 0)].RootRank, 0);
  EXPECT_FALSE(rootOnlyRank(Met)) << "both kinds of ranks reach the merge";
  // Without the mark the copy holds on one path only: gone.
  VarState Unmarked{{StateKey::element(Buf, 0), Copy}};
  EXPECT_FALSE(
      mergePathStates(Unmarked, Others).count(StateKey::element(Buf, 0)));
  // Every rank's copy meets rank 0's: it holds for rank 0.
  EXPECT_EQ(mergePathStates(Met, Unmarked)[StateKey::element(Buf, 0)].RootRank,
            0);
  // Rank 0's and rank 1's own copies: neither holds everywhere.
  VarState Root1{{StateKey::element(Buf, 0), Copy}};
  markRootOnly(Root1, 1);
  VarState Others1;
  markExceptRank(Others1, 1);
  VarState Met1 = mergePathStates(Root1, Others1);
  EXPECT_EQ(Met1[StateKey::element(Buf, 0)].RootRank, 1);
  EXPECT_FALSE(mergePathStates(Met, Met1).count(StateKey::element(Buf, 0)));
  EXPECT_FALSE(mergePathStates(Root, Root1).count(StateKey::rootOnlyPath()));
  EXPECT_FALSE(exceptedRank(mergePathStates(Others, Others1)));
  EXPECT_EQ(exceptedRank(mergePathStates(Others, Others)),
            std::optional<int64_t>(0));
}

TEST(VarStateLattice, AgreedFieldsHoldOnlyWhereEveryPathHoldsThem) {
  auto States = statesWithFields(wellFormedValues());
  ASSERT_GT(States.size(), 10u);
  for (const VarState &A : States) {
    EXPECT_TRUE(sameState(joinStates(A, A), A))
        << dumpState(A) << " => " << dumpState(joinStates(A, A));
    EXPECT_TRUE(sameState(mergePathStates(A, A), mergePathStates(A, A)));
    for (const VarState &B : States) {
      VarState J = joinStates(A, B), M = mergePathStates(A, B);
      ASSERT_TRUE(sameState(J, joinStates(B, A)));
      ASSERT_TRUE(sameState(M, mergePathStates(B, A)));
      for (const auto &[Key, T] : M)
        if (Key.isPart())
          ASSERT_TRUE((A.count(Key) && B.count(Key)) ||
                      (Key.Index >= 0 && T.RootRank >= 0 &&
                       (PathRanks(A).never(T.RootRank) ||
                        PathRanks(B).never(T.RootRank))));
      for (const VarState &C : States) {
        ASSERT_TRUE(
            sameState(joinStates(J, C), joinStates(A, joinStates(B, C))))
            << dumpState(A) << "|" << dumpState(B) << "|" << dumpState(C)
            << "=>" << dumpState(joinStates(J, C)) << " vs "
            << dumpState(joinStates(A, joinStates(B, C)));
        ASSERT_TRUE(sameState(mergePathStates(M, C),
                              mergePathStates(A, mergePathStates(B, C))))
            << dumpState(A) << "|" << dumpState(B) << "|" << dumpState(C)
            << "=>" << dumpState(mergePathStates(M, C)) << " vs "
            << dumpState(mergePathStates(A, mergePathStates(B, C)));
      }
    }
  }
  // Writing the variable forgets its fields, not the others'.
  static const char Keys[3] = {};
  auto *V = reinterpret_cast<const clang::VarDecl *>(&Keys[0]);
  auto *W = reinterpret_cast<const clang::VarDecl *>(&Keys[1]);
  auto *F = reinterpret_cast<const clang::FieldDecl *>(&Keys[2]);
  VarState S{{V, Taint()},
             {StateKey(V, F), Taint()},
             {StateKey::element(V, 3), Taint()},
             {StateKey(W, F), Taint()}};
  forgetFieldsOf(S, V);
  EXPECT_EQ(S.size(), 2u);
  EXPECT_TRUE(S.count(V) && S.count(StateKey(W, F)));
  forgetField(S, F);
  EXPECT_EQ(S.size(), 1u);
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
