//===- PrunedControlDependence.cpp ----------------------------------------===//
#include "engine/cfg/PrunedControlDependence.h"

#include "engine/solver/Solver.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace distlint {

namespace {
/// Post-dominator sets of the CFG without the removed blocks.
struct PostDominators {
  using Element = llvm::BitVector;
  static constexpr solver::Direction Dir = solver::Direction::Backward;
  unsigned N;
  const CFGBlock *Exit;
  const llvm::SmallPtrSetImpl<const CFGBlock *> &Removed;
  llvm::BitVector bottom() const { return llvm::BitVector(N, true); }
  llvm::BitVector boundary() const {
    llvm::BitVector Only(N, false);
    Only.set(Exit->getBlockID());
    return Only;
  }
  llvm::BitVector
  merge(const CFGBlock *,
        llvm::ArrayRef<solver::Neighbour<llvm::BitVector>> Succs) const {
    llvm::BitVector Meet(N, true);
    for (const auto &S : Succs)
      if (!Removed.count(S.Block))
        Meet &= *S.Out;
    return Meet;
  }
  void transfer(const CFGBlock *B, llvm::BitVector &Set) {
    if (B == Exit)
      return;
    if (Removed.count(B))
      Set.set(); // Not part of the pruned CFG.
    else
      Set.set(B->getBlockID());
  }
  bool equal(const llvm::BitVector &A, const llvm::BitVector &B) const {
    return A == B;
  }
  void widen(const CFGBlock *, const llvm::BitVector &, llvm::BitVector &) {}
};
} // namespace

PrunedControlDependence::PrunedControlDependence(
    const FunctionFacts &Facts,
    const llvm::SmallPtrSetImpl<const CFGBlock *> &Removed) {
  CFG &G = Facts.cfg();
  unsigned N = G.getNumBlockIDs();
  Direct.assign(N, {});
  const CFGBlock *Exit = &G.getExit();
  auto Live = [&](const CFGBlock *B) { return B && !Removed.count(B); };
  // Post-dominator sets over live blocks: a backward greatest fixpoint
  // from the full set (blocks that cannot reach the exit keep it).
  PostDominators Problem{N, Exit, Removed};
  const std::vector<llvm::BitVector> PD = solver::solve(G, Problem).Out;
  const auto &RPO = Facts.reversePostOrder();
  auto ReachesExit = [&](const CFGBlock *B) {
    return PD[B->getBlockID()].test(Exit->getBlockID());
  };
  std::vector<const CFGBlock *> ById(N, nullptr);
  for (const CFGBlock *C : G)
    ById[C->getBlockID()] = C;
  // Immediate post-dominator: the strict post-dominator whose own set is
  // the rest of B's.
  IPDoms.assign(N, nullptr);
  for (const CFGBlock *B : RPO) {
    if (!Live(B) || B == Exit || !ReachesExit(B))
      continue;
    llvm::BitVector Strict = PD[B->getBlockID()];
    Strict.reset(B->getBlockID());
    for (int I = Strict.find_first(); I >= 0; I = Strict.find_next(I))
      if (PD[I] == Strict) {
        IPDoms[B->getBlockID()] = ById[I];
        break;
      }
  }
  auto IPDomOf = [&](const CFGBlock *B) { return IPDoms[B->getBlockID()]; };
  // Ferrante et al.: for each edge X -> Y, the blocks from Y up to X's
  // immediate post-dominator depend on X.
  for (const CFGBlock *X : RPO) {
    if (!Live(X) || !ReachesExit(X))
      continue;
    llvm::SmallPtrSet<const CFGBlock *, 4> Succs;
    for (const CFGBlock *Y : X->succs())
      if (Live(Y) && ReachesExit(Y))
        Succs.insert(Y);
    if (Succs.size() < 2)
      continue;
    const CFGBlock *Stop = IPDomOf(X);
    for (const CFGBlock *Y : Succs)
      for (const CFGBlock *Run = Y; Run && Run != Stop; Run = IPDomOf(Run)) {
        auto &Deps = Direct[Run->getBlockID()];
        if (!llvm::is_contained(Deps, X))
          Deps.push_back(X);
        if (Run == Exit)
          break;
      }
  }
}

const CFGBlock *
PrunedControlDependence::immediatePostDominator(const CFGBlock *B) const {
  return B && B->getBlockID() < IPDoms.size() ? IPDoms[B->getBlockID()]
                                              : nullptr;
}

std::vector<const CFGBlock *>
PrunedControlDependence::all(const CFGBlock *B) const {
  std::vector<const CFGBlock *> Out;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen; // B too (CFGFacts.cpp).
  std::vector<const CFGBlock *> Work{B};
  while (!Work.empty()) {
    const CFGBlock *Cur = Work.back();
    Work.pop_back();
    for (const CFGBlock *Dep : Direct[Cur->getBlockID()])
      if (Seen.insert(Dep).second) {
        Out.push_back(Dep);
        Work.push_back(Dep);
      }
  }
  return Out;
}

} // namespace distlint
