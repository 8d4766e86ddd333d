//===- Divergence.h - Where two rank classes first disagree -----*- C++ -*-===//
//
// The ordered comparison behind Engine::divergenceAt: the arms of a branch
// (or a loop's next iteration against its exit) are built as sequence trees
// and run side by side; the first difference is seen from the side that
// issues a collective there (the other side issues nothing more, another
// collective, or blocks in a send/receive).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/collectives/Sequence.h"

#include "clang/Analysis/CFG.h"

#include <optional>

namespace distlint {

class Engine;

namespace collectives {

struct OrderDifference {
  Side Here;  ///< Issues a collective at the first difference.
  Side Other; ///< What the other rank class issues there (maybe nothing).
  Mismatch Why = Mismatch::None;
};

/// First difference between the arms of Branch (a block of FD's CFG).
/// WholeJoin: see SequenceBuilder::arms.
std::optional<OrderDifference> orderDifference(Engine &E,
                                               const clang::FunctionDecl *FD,
                                               const clang::CFGBlock *Branch,
                                               bool WholeJoin = false);
/// The same for the branch statement Terminator (if, loop, switch, ?:, &&).
std::optional<OrderDifference> orderDifference(Engine &E,
                                               const clang::Stmt *Terminator);

} // namespace collectives
} // namespace distlint
