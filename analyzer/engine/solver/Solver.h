//===- Solver.h - The one worklist fixpoint over a CFG ----------*- C++ -*-===//
//
// Every block-level fixpoint of the engine runs here: the uniformity
// data-flow, fail-stop (doomed) blocks, post-dominators of a pruned CFG,
// must-happen queries. An analysis supplies its lattice and its transfer;
// the solver owns the iteration order, the worklist, widening and the
// visit budget.
//
// Analysis concept (A):
//   using Element = ...;                  lattice element
//   static constexpr Direction Dir;       Forward: In(B) from predecessors
//   Element bottom() const;               every block starts here
//   Element boundary() const;             In of the entry (Forward) or of
//                                         the exit (Backward)
//   Element merge(const CFGBlock *B,      In(B) from the neighbours' Out
//                 NeighbourOuts Ns) const; (default confluence: joinAll)
//   void transfer(const CFGBlock *B, Element &State);   In -> Out
//   bool equal(const Element &, const Element &) const;
//   void widen(const CFGBlock *B, const Element &Old, Element &New);
//                                         called when a loop head's Out
//                                         keeps changing (WidenAfter)
//
// Semantics: chaotic iteration from bottom in (reverse) post-order; a
// block is revisited when a neighbour's Out changed. Monotone transfers
// reach the least fixpoint; widening makes infinite-height lattices stop.
// When the visit budget runs out the result is partial and says so.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <set>
#include <vector>

namespace distlint {
namespace solver {

enum class Direction { Forward, Backward };

/// Neighbour blocks (predecessors for Forward, successors for Backward)
/// with their current Out, skipping null (unreachable) edges.
template <class Element> struct Neighbour {
  const clang::CFGBlock *Block;
  const Element *Out;
};

struct SolverLimits {
  /// Block visits allowed per block, on average (the budget is
  /// MaxVisitsPerBlock * number of blocks).
  unsigned MaxVisitsPerBlock = 50;
  /// Visits of a loop head after which its Out is widened.
  unsigned WidenAfter = 8;
};

template <class Element> struct Solution {
  std::vector<Element> In, Out; ///< By block ID.
  unsigned Visits = 0;
  /// The budget ran out before the fixpoint: In / Out are partial.
  bool BudgetHit = false;
  const Element &in(const clang::CFGBlock *B) const {
    return In[B->getBlockID()];
  }
  const Element &out(const clang::CFGBlock *B) const {
    return Out[B->getBlockID()];
  }
};

/// Blocks in the solver's order: reverse post-order from the entry for
/// Forward (blocks unreachable from it are never visited), post-order
/// from the entry plus every other block for Backward.
std::vector<const clang::CFGBlock *> solveOrder(const clang::CFG &G,
                                                Direction D);

template <class A>
Solution<typename A::Element> solve(const clang::CFG &G, A &Analysis,
                                    SolverLimits Limits = {}) {
  using Element = typename A::Element;
  constexpr bool Fwd = A::Dir == Direction::Forward;
  const unsigned N = G.getNumBlockIDs();
  Solution<Element> S;
  S.In.assign(N, Analysis.bottom());
  S.Out.assign(N, Analysis.bottom());

  std::vector<const clang::CFGBlock *> Order = solveOrder(G, A::Dir);
  std::vector<int> Pos(N, -1);
  for (unsigned I = 0; I < Order.size(); ++I)
    Pos[Order[I]->getBlockID()] = int(I);
  const clang::CFGBlock *Boundary = Fwd ? &G.getEntry() : &G.getExit();
  // A loop head: some neighbour comes later in the order (a back edge).
  auto IsLoopHead = [&](const clang::CFGBlock *B) {
    for (const clang::CFGBlock *Nb : Fwd ? B->preds() : B->succs())
      if (Nb && Pos[Nb->getBlockID()] >= Pos[B->getBlockID()])
        return true;
    return false;
  };

  std::set<int> Work;
  for (unsigned I = 0; I < Order.size(); ++I)
    Work.insert(int(I));
  std::vector<unsigned> Changes(N, 0);
  const unsigned Budget = Limits.MaxVisitsPerBlock * unsigned(Order.size());
  llvm::SmallVector<Neighbour<Element>, 4> Ns;
  while (!Work.empty()) {
    if (S.Visits >= Budget) {
      S.BudgetHit = true;
      break;
    }
    ++S.Visits;
    const clang::CFGBlock *B = Order[*Work.begin()];
    Work.erase(Work.begin());
    unsigned Id = B->getBlockID();
    if (B == Boundary) {
      S.In[Id] = Analysis.boundary();
    } else {
      Ns.clear();
      for (const clang::CFGBlock *Nb : Fwd ? B->preds() : B->succs())
        if (Nb && Pos[Nb->getBlockID()] >= 0)
          Ns.push_back({Nb, &S.Out[Nb->getBlockID()]});
      S.In[Id] = Analysis.merge(B, llvm::ArrayRef<Neighbour<Element>>(Ns));
    }
    Element New = S.In[Id];
    Analysis.transfer(B, New);
    if (Analysis.equal(New, S.Out[Id]))
      continue;
    if (++Changes[Id] > Limits.WidenAfter && IsLoopHead(B))
      Analysis.widen(B, S.Out[Id], New);
    S.Out[Id] = std::move(New);
    for (const clang::CFGBlock *Dep : Fwd ? B->succs() : B->preds())
      if (Dep && Pos[Dep->getBlockID()] >= 0)
        Work.insert(Pos[Dep->getBlockID()]);
  }
  return S;
}

/// Default confluence: the lattice join of the neighbours' Out, starting
/// from bottom (for analyses whose Element has join(const Element &)).
template <class Element>
Element joinAll(Element Bottom, llvm::ArrayRef<Neighbour<Element>> Ns) {
  for (const Neighbour<Element> &Nb : Ns)
    Bottom.join(*Nb.Out);
  return Bottom;
}

} // namespace solver
} // namespace distlint
