//===- PrunedControlDependence.h - Control dependence minus some blocks -*- C++
//-*-===//
//
// Control dependence on the CFG with a set of blocks removed, computed with
// post-dominators of its own. With the doomed blocks removed: after
// `if (err) exit(1);`, or after `if (rank == 0) { CHECK(...); }`, the code
// that follows runs on every rank still alive.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/cfg/CFGFacts.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace distlint {

class PrunedControlDependence {
public:
  PrunedControlDependence(
      const FunctionFacts &Facts,
      const llvm::SmallPtrSetImpl<const clang::CFGBlock *> &Removed);
  /// Transitive control dependencies of B in the pruned CFG.
  std::vector<const clang::CFGBlock *> all(const clang::CFGBlock *B) const;
  /// Immediate post-dominator of B in the pruned CFG: where the live paths
  /// leaving B meet again. Null for removed blocks, blocks that cannot reach
  /// the exit, and the exit itself.
  const clang::CFGBlock *immediatePostDominator(const clang::CFGBlock *B) const;

private:
  /// Direct control dependencies in the pruned CFG, by block ID.
  std::vector<std::vector<const clang::CFGBlock *>> Direct;
  /// Immediate post-dominators in the pruned CFG, by block ID.
  std::vector<const clang::CFGBlock *> IPDoms;
};

} // namespace distlint
