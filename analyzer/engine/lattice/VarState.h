//===- VarState.h - Abstract state: one Taint per variable -----*- C++ -*-===//
//
// The lattice of the uniformity data-flow at a program point: a map from
// local variable to Taint, absent = not yet assigned on any path seen
// (bottom). Join is per variable; the empty map is the bottom element.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/lattice/Taint.h"

#include <map>

namespace distlint {

using VarState = std::map<const clang::VarDecl *, Taint>;

/// Per-variable join; a variable present on one side only keeps its value.
inline VarState joinStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  for (const auto &[VD, T] : B) {
    auto It = Out.find(VD);
    if (It == Out.end())
      Out.emplace(VD, T);
    else
      It->second.join(T);
  }
  return Out;
}

/// A variable missing on one path has its initial value there, which is
/// not a known single value: a pending implicit flow cannot be compared
/// with it (it settles), and neither can a later path's (no range).
inline void mergeWithInitialValue(Taint &T) {
  T.settle();
  T.Range.reset();
  T.IsRank = false;
}

/// Merges the states of two control-flow paths (Taint::mergePaths per
/// variable present on both).
inline VarState mergePathStates(const VarState &A, const VarState &B) {
  VarState Out = A;
  for (auto &[VD, T] : Out)
    if (!B.count(VD))
      mergeWithInitialValue(T);
  for (const auto &[VD, T] : B) {
    auto It = Out.find(VD);
    if (It == Out.end()) {
      Taint Merged = T;
      mergeWithInitialValue(Merged);
      Out.emplace(VD, Merged);
    } else {
      It->second.mergePaths(T);
    }
  }
  return Out;
}

/// Taint::decidePending for every variable, at a merge point.
inline void decidePendingStates(VarState &S, const Taint &MergeControl) {
  for (auto &[VD, T] : S)
    T.decidePending(MergeControl);
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
