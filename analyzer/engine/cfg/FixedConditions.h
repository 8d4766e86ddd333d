//===- FixedConditions.h - Branches on conditions a function never changes ===//
//
// `if (rank == 0 && tune) { ... }` and later `if (tune) MPI_Bcast(...)`:
// when the function never writes what `tune` reads, the later branch takes
// the side the earlier one took on the path that reached a given block.
// The writer-agreement question and the hang arms (ErrorPaths.h) follow
// paths from such a block with these sides fixed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace distlint {

/// The sides of the branches a block sits under whose conditions the
/// function body never changes, by the conditions' shape.
class FixedConditionSides {
public:
  /// Deps: the branches Block is control-dependent on.
  FixedConditionSides(Engine &E, const clang::Stmt *FunctionBody,
                      llvm::ArrayRef<const clang::CFGBlock *> Deps,
                      const clang::CFGBlock *Block);
  /// The successor index a branch on one of those conditions takes.
  std::optional<unsigned> sideAt(const clang::CFGBlock *Branch) const;
  bool empty() const { return Sides.empty(); }

private:
  Engine &E;
  llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, unsigned>, 4> Sides;
};

/// Can To be reached from From without passing Avoid?
bool reachesAvoiding(const clang::CFGBlock *From, const clang::CFGBlock *To,
                     const clang::CFGBlock *Avoid);

} // namespace distlint
