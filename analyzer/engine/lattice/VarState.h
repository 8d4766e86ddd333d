//===- VarState.h - Abstract state: one Taint per variable -----*- C++ -*-===//
//
// The lattice of the uniformity data-flow at a program point: a map from
// local variable to Taint, absent = not yet assigned on any path seen
// (bottom). Join is per variable; the empty map is the bottom element.
//
// A key may also name one field reached from a variable (`p->f`, `s.f`):
// such an entry says what this path knows beyond the TU-wide field facts:
// that a collective agreed on the field since it was last written, or the
// value the field got when the whole struct was last given one (a braced
// list, a struct a function returns field by field).
// It holds only where every path into a point holds it, so a merge keeps a
// field entry present on both sides and drops one present on one side.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/lattice/Taint.h"

#include <iterator>
#include <map>

namespace clang {
class FieldDecl;
} // namespace clang

namespace distlint {

/// A variable, one of the fields reached from it, or one of its elements
/// at a constant index (an array or buffer the path wrote `B[8] = x` into).
struct StateKey {
  const clang::VarDecl *Var = nullptr;
  const clang::FieldDecl *Field = nullptr;
  int64_t Index = -1;                           ///< An element: its index.
  StateKey(const clang::VarDecl *V) : Var(V) {} // NOLINT: a variable is a key
  StateKey(const clang::VarDecl *V, const clang::FieldDecl *F)
      : Var(V), Field(F) {}
  static StateKey element(const clang::VarDecl *V, int64_t I) {
    StateKey K(V);
    K.Index = I;
    return K;
  }
  /// Field F of the object the function runs on (`this->F`), as this path
  /// last wrote it.
  static StateKey thisField(const clang::FieldDecl *F) {
    return StateKey(nullptr, F);
  }
  /// The mark of a path taken only in a world of one rank (no variable):
  /// every value read on it agrees (makeSingleRank).
  static StateKey oneRankWorld() {
    StateKey K(nullptr);
    K.Index = -2;
    return K;
  }
  /// The mark of a path that only one rank takes (the true edge of `rank
  /// == 0` and what follows it; the rank is the entry's single value):
  /// what a broadcast's root sent is its value there (adoptRootValues).
  static StateKey rootOnlyPath() {
    StateKey K(nullptr);
    K.Index = -3;
    return K;
  }
  /// The mark of a path every rank but one takes (the false edge of `rank
  /// == 0`...; the rank left out is the entry's single value).
  static StateKey exceptRankPath() {
    StateKey K(nullptr);
    K.Index = -4;
    return K;
  }
  /// A field or element entry: what one path knows beyond the variable.
  /// The one-rank and root-only marks are too: kept where every path into
  /// a point has them.
  bool isPart() const { return Field || Index >= 0 || Index <= -2; }
  bool operator<(const StateKey &O) const {
    if (Var != O.Var)
      return Var < O.Var;
    return Field != O.Field ? Field < O.Field : Index < O.Index;
  }
  bool operator==(const StateKey &O) const {
    return Var == O.Var && Field == O.Field && Index == O.Index;
  }
  bool operator!=(const StateKey &O) const { return !(*this == O); }
};

using VarState = std::map<StateKey, Taint>;

/// Forgets what the path knew of VD's fields and elements (VD or its object
/// was written).
inline void forgetFieldsOf(VarState &S, const clang::VarDecl *VD) {
  auto It = S.lower_bound(StateKey(VD, nullptr));
  if (It != S.end() && It->first == StateKey(VD))
    ++It;
  while (It != S.end() && It->first.Var == VD)
    It = S.erase(It);
}

/// Forgets what the path knew of VD's field F (only that field was handed
/// to a call that may write it: `read_name(cfg.dir)`).
inline void forgetFieldOf(VarState &S, const clang::VarDecl *VD,
                          const clang::FieldDecl *F) {
  auto It = S.lower_bound(StateKey(VD, F));
  while (It != S.end() && It->first.Var == VD && It->first.Field == F)
    It = S.erase(It);
}

/// Forgets field F through every variable (written through some pointer).
inline void forgetField(VarState &S, const clang::FieldDecl *F) {
  for (auto It = S.begin(); It != S.end();)
    It = It->first.Field == F ? S.erase(It) : std::next(It);
}

/// Where two paths meet with the same part: a root-only mark holds only
/// for the same rank; a buffer element's copy only where both sides copied
/// the same variable, and then on the ranks both sides say (every rank, or
/// the one rank of a root-only path: RootRank). False: the merged part says
/// nothing true and goes. A is Merged's side before the merge, B the other.
inline bool keepRootOnlyPart(const StateKey &Key, Taint &Merged, const Taint &A,
                             const Taint &B) {
  if (Key == StateKey::rootOnlyPath() || Key == StateKey::exceptRankPath())
    return Merged.singleValue();
  if (Key.Index < 0)
    return true;
  if (A.CopyOf != B.CopyOf || A.CopyOfField != B.CopyOfField)
    return false;
  if (!A.CopyOf && !A.CopyOfField)
    return true; // Not a copy: the join decided.
  if (A.RootRank >= 0 && B.RootRank >= 0 && A.RootRank != B.RootRank)
    return false;
  Merged.RootRank = std::max(A.RootRank, B.RootRank);
  return true;
}

/// Per-variable join; a variable present on one side only keeps its value.
inline VarState joinStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  for (auto It = Out.begin(); It != Out.end();)
    It = It->first.isPart() && !B.count(It->first) ? Out.erase(It)
                                                   : std::next(It);
  for (const auto &[Key, T] : B) {
    auto It = Out.find(Key);
    if (It == Out.end()) {
      if (!Key.isPart())
        Out.emplace(Key, T);
    } else {
      Taint Before = Key.isPart() ? It->second : Taint();
      It->second.join(T);
      if (Key.isPart() && !keepRootOnlyPart(Key, It->second, Before, T))
        Out.erase(It);
    }
  }
  return Out;
}

/// The rank that alone takes this path, if one does (StateKey::rootOnlyPath).
inline std::optional<int64_t> rootOnlyRank(const VarState &S) {
  auto It = S.find(StateKey::rootOnlyPath());
  if (It == S.end() || !It->second.singleValue())
    return std::nullopt;
  return It->second.Range->Lo.C;
}
/// The rank that never takes this path, if the path says
/// (StateKey::exceptRankPath).
inline std::optional<int64_t> exceptedRank(const VarState &S) {
  auto It = S.find(StateKey::exceptRankPath());
  if (It == S.end() || !It->second.singleValue())
    return std::nullopt;
  return It->second.Range->Lo.C;
}
/// Marks S as a path every rank but Rank takes.
inline void markExceptRank(VarState &S, int64_t Rank) {
  Taint Mark;
  Mark.Range = IntRange{{0, Rank}, {0, Rank}};
  S[StateKey::exceptRankPath()] = Mark;
}
/// Who takes a path, as far as its marks say.
struct PathRanks {
  std::optional<int64_t> Except;
  explicit PathRanks(const VarState &S) : Except(exceptedRank(S)) {}
  /// Is the path one of every rank but Rank? (Only that, not also another
  /// rank's own path: marks that differ meet as no mark, so this keeps a
  /// merge of three paths independent of their order.)
  bool never(int64_t Rank) const { return Except == Rank; }
};

/// Marks S as a path that rank Rank alone takes. What it copied into
/// buffer elements holds for that rank (RootRank), and nothing copied for
/// another rank alone holds here.
inline void markRootOnly(VarState &S, int64_t Rank) {
  for (auto It = S.begin(); It != S.end();) {
    Taint &T = It->second;
    if (It->first.Index >= 0 && (T.CopyOf || T.CopyOfField)) {
      if (T.RootRank >= 0 && T.RootRank != Rank) {
        It = S.erase(It);
        continue;
      }
      T.RootRank = Rank;
    }
    ++It;
  }
  Taint Mark;
  Mark.Range = IntRange{{0, Rank}, {0, Rank}};
  S[StateKey::rootOnlyPath()] = Mark;
}

/// A variable missing on one path has its initial value there, which is
/// not a known single value: a pending implicit flow cannot be compared
/// with it (it settles), and neither can a later path's (no range, no
/// name).
inline void mergeWithInitialValue(Taint &T) {
  T.settle();
  T.Range.reset();
  T.ValueKey = 0;
  T.IsRank = false;
}

/// Merges the states of two control-flow paths (Taint::mergePaths per
/// variable present on both).
/// In place: Out becomes the merge of Out and B.
inline void mergePathStatesInto(VarState &Out, const VarState &B) {
  // What a path only one rank takes copied into a buffer's elements (`if
  // (rank == 0) info[0] = n;`, RootRank) still holds for that rank where
  // the other path is one it never takes (`rank != 0`): the other ranks'
  // elements are about to be overwritten by a broadcast.
  const PathRanks OutRanks(Out), BRanks(B);
  auto RootCopy = [](const StateKey &Key, const Taint &T,
                     const PathRanks &Other) {
    return Key.Index >= 0 && (T.CopyOf || T.CopyOfField) && T.RootRank >= 0 &&
           Other.never(T.RootRank);
  };
  for (auto It = Out.begin(); It != Out.end();) {
    if (!B.count(It->first)) {
      if (It->first.isPart()) {
        if (RootCopy(It->first, It->second, BRanks)) {
          ++It;
          continue;
        }
        It = Out.erase(It);
        continue;
      }
      mergeWithInitialValue(It->second);
    }
    ++It;
  }
  for (const auto &[Key, T] : B) {
    auto It = Out.find(Key);
    if (It == Out.end()) {
      if (Key.isPart()) {
        if (RootCopy(Key, T, OutRanks))
          Out.emplace(Key, T);
        continue;
      }
      Taint Merged = T;
      mergeWithInitialValue(Merged);
      Out.emplace(Key, Merged);
    } else {
      Taint Before = Key.isPart() ? It->second : Taint();
      It->second.mergePaths(T);
      if (Key.isPart() && !keepRootOnlyPart(Key, It->second, Before, T))
        Out.erase(It);
    }
  }
}
inline VarState mergePathStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  mergePathStatesInto(Out, B);
  return Out;
}

/// Taint::decidePending for every variable, at a merge point.
inline void decidePendingStates(VarState &S, const Taint &MergeControl) {
  for (auto &[VD, T] : S)
    T.decidePending(MergeControl);
}

/// A value read on a path taken only in a world of one rank (`if (size ==
/// 1) return local;`) agrees with itself: nothing varies between ranks,
/// whatever it was computed from (parameters included). The rank keeps its
/// facts (its range decides `rank < size` after the paths meet again).
inline void agreeInOneRankWorld(Taint &T) {
  if (T.IsRank || !(T.Vary || T.Params || T.PendingVary || T.PendingParams))
    return;
  Taint Agreed;
  Agreed.UniformContent = true;
  Agreed.Range = T.Range;
  Agreed.NonNull = T.NonNull;
  Agreed.ShapeKey = T.ShapeKey;
  T = Agreed;
}
inline bool inOneRankWorld(const VarState &S) {
  return S.count(StateKey::oneRankWorld());
}
/// Marks S as a path of a one-rank world: what it holds (`result = v;
/// if (size > 1) result = reduced;`) and what is read on it
/// (UniformityAnalysis::eval) agrees.
inline void makeSingleRank(VarState &S) {
  for (auto &[Key, T] : S)
    agreeInOneRankWorld(T);
  S[StateKey::oneRankWorld()] = Taint();
}

/// Equal as lattice elements (origins are witnesses, not compared).
inline bool sameState(const VarState &A, const VarState &B) {
  if (A.size() != B.size())
    return false;
  for (auto IA = A.begin(), IB = B.begin(); IA != A.end(); ++IA, ++IB)
    if (IA->first != IB->first || !IA->second.sameAs(IB->second))
      return false;
  return true;
}

/// Widening for loops: a variable whose range still changes loses it.
inline void widenState(const VarState &Old, VarState &New) {
  for (auto &[VD, T] : New) {
    auto It = Old.find(VD);
    if (It != Old.end() && T.Range && !(It->second.Range == T.Range))
      T.Range.reset();
  }
}

} // namespace distlint
