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
  /// A field or element entry: what one path knows beyond the variable.
  /// The one-rank mark is one too: kept where every path into a point has
  /// it.
  bool isPart() const { return Field || Index >= 0 || Index == -2; }
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

/// Forgets field F through every variable (written through some pointer).
inline void forgetField(VarState &S, const clang::FieldDecl *F) {
  for (auto It = S.begin(); It != S.end();)
    It = It->first.Field == F ? S.erase(It) : std::next(It);
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
      It->second.join(T);
    }
  }
  return Out;
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
  for (auto It = Out.begin(); It != Out.end();) {
    if (!B.count(It->first)) {
      if (It->first.isPart()) {
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
      if (Key.isPart())
        continue;
      Taint Merged = T;
      mergeWithInitialValue(Merged);
      Out.emplace(Key, Merged);
    } else {
      It->second.mergePaths(T);
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
  return !S.empty() && S.begin()->first == StateKey::oneRankWorld();
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
