//===- RankConditions.h - Branch conditions over the rank ------*- C++ -*-===//
//
// What the rank-class comparison (RankClasses.cpp) knows of a branch: its
// condition over the rank, the world size and named uniform values, read
// from the uniformity state at the branch, and its value for a class of
// ranks. Internal to collectives/.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/collectives/RankClasses.h"
#include "engine/lattice/VarState.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace distlint {
class UniformityAnalysis;
namespace collectives {

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

/// X's value for the ranks of class C; nullopt where it depends on
/// something the class does not fix.
std::optional<int64_t> evaluate(const CondExpr &X, const RankClass &C);
/// The condition a branch or loop terminator tests.
const clang::Expr *conditionOf(const clang::Stmt *T);
/// The atom a terminator's condition tests (the variable or call compared).
const clang::Expr *testedAtom(const clang::Stmt *T);
/// A name for the atom a choice tests, for the ranks of class C: the same
/// on every class where it reads the same named values, and whether the
/// options are swapped against it (`!deflt` tests `deflt`); nullopt when a
/// leaf is unknown, the rank, or named for another rank only.
struct AtomName {
  uint64_t Id = 0;
  bool Flipped = false; ///< The branch tests the atom's negation.
  uint64_t Subject = 0; ///< ChoiceKey::Subject: `value == constant`.
};
std::optional<AtomName> atomName(const CondExpr &X, const RankClass &C);
/// X as a CondExpr, from the uniformity state S at its branch.
CondExpr buildCondition(Engine &E, UniformityAnalysis &U, const VarState &S,
                        const clang::Expr *X);

} // namespace collectives
} // namespace distlint
