//===- Solver.cpp ---------------------------------------------------------===//
#include "engine/solver/Solver.h"

#include "llvm/ADT/BitVector.h"

using namespace clang;

namespace distlint {
namespace solver {

std::vector<const CFGBlock *> solveOrder(const CFG &G, Direction D) {
  // Iterative depth-first post-order from the entry.
  std::vector<const CFGBlock *> Post;
  llvm::BitVector Seen(G.getNumBlockIDs());
  std::vector<std::pair<const CFGBlock *, CFGBlock::const_succ_iterator>> Stack;
  const CFGBlock *Entry = &G.getEntry();
  Seen.set(Entry->getBlockID());
  Stack.push_back({Entry, Entry->succ_begin()});
  while (!Stack.empty()) {
    auto &[B, It] = Stack.back();
    if (It == B->succ_end()) {
      Post.push_back(B);
      Stack.pop_back();
      continue;
    }
    const CFGBlock *Next = *It;
    ++It;
    if (Next && !Seen.test(Next->getBlockID())) {
      Seen.set(Next->getBlockID());
      Stack.push_back({Next, Next->succ_begin()});
    }
  }
  if (D == Direction::Forward)
    return std::vector<const CFGBlock *>(Post.rbegin(), Post.rend());
  for (const CFGBlock *B : G)
    if (!Seen.test(B->getBlockID()))
      Post.push_back(B);
  return Post;
}

} // namespace solver
} // namespace distlint
