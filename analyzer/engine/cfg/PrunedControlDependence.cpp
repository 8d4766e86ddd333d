//===- PrunedControlDependence.cpp ----------------------------------------===//
#include "engine/cfg/PrunedControlDependence.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace distlint {

PrunedControlDependence::PrunedControlDependence(
    const FunctionFacts &Facts,
    const llvm::SmallPtrSetImpl<const CFGBlock *> &Removed) {
  CFG &G = Facts.cfg();
  unsigned N = G.getNumBlockIDs();
  Direct.assign(N, {});
  const CFGBlock *Exit = &G.getExit();
  auto Live = [&](const CFGBlock *B) { return B && !Removed.count(B); };
  // Post-dominator sets over live blocks, iterated to a fixpoint (blocks
  // that cannot reach the exit keep the full set).
  std::vector<llvm::BitVector> PD(N, llvm::BitVector(N, true));
  PD[Exit->getBlockID()] = llvm::BitVector(N, false);
  PD[Exit->getBlockID()].set(Exit->getBlockID());
  const auto &RPO = Facts.reversePostOrder();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto It = RPO.rbegin(); It != RPO.rend(); ++It) {
      const CFGBlock *B = *It;
      if (B == Exit || !Live(B))
        continue;
      llvm::BitVector New(N, true);
      bool AnySucc = false;
      for (const CFGBlock *Succ : B->succs())
        if (Live(Succ)) {
          New &= PD[Succ->getBlockID()];
          AnySucc = true;
        }
      if (!AnySucc)
        continue;
      New.set(B->getBlockID());
      if (New != PD[B->getBlockID()]) {
        PD[B->getBlockID()] = std::move(New);
        Changed = true;
      }
    }
  }
  auto ReachesExit = [&](const CFGBlock *B) {
    return PD[B->getBlockID()].test(Exit->getBlockID());
  };
  // Immediate post-dominator: the strict post-dominator whose own set is
  // the rest of B's.
  auto IPDom = [&](const CFGBlock *B) -> const CFGBlock * {
    llvm::BitVector Strict = PD[B->getBlockID()];
    Strict.reset(B->getBlockID());
    for (int I = Strict.find_first(); I >= 0; I = Strict.find_next(I))
      if (PD[I] == Strict)
        for (const CFGBlock *C : G)
          if (C->getBlockID() == (unsigned)I)
            return C;
    return nullptr;
  };
  llvm::DenseMap<const CFGBlock *, const CFGBlock *> IPDomCache;
  auto IPDomOf = [&](const CFGBlock *B) {
    auto [It, New] = IPDomCache.try_emplace(B, nullptr);
    if (New)
      It->second = IPDom(B);
    return It->second;
  };
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

std::vector<const CFGBlock *>
PrunedControlDependence::all(const CFGBlock *B) const {
  std::vector<const CFGBlock *> Out;
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen{B};
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
