//===- FailStop.cpp -------------------------------------------------------===//
#include "engine/cfg/FailStop.h"

#include "engine/solver/Solver.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace distlint {

bool throwLeavesFunction(const CFGBlock *B, const CFGBlock *Exit) {
  bool Throws =
      B->getTerminatorStmt() && isa<CXXThrowExpr>(B->getTerminatorStmt());
  for (auto It = B->rbegin(); !Throws && It != B->rend(); ++It)
    if (auto CS = It->getAs<CFGStmt>()) {
      Throws = isa<CXXThrowExpr>(CS->getStmt());
      break;
    }
  if (!Throws)
    return false;
  for (const CFGBlock *Succ : B->succs())
    if (Succ && Succ != Exit)
      return false;
  return true;
}

bool escapesTry(const CFGBlock *Dispatch, const CFGBlock *Succ) {
  return Succ && Succ->succ_empty() && Succ == &Succ->getParent()->getExit() &&
         isa_and_nonnull<CXXTryStmt>(Dispatch->getTerminatorStmt()) &&
         Dispatch->succ_size() > 1;
}

namespace {
/// Doomed blocks as a backward solver problem.
struct DoomedProblem {
  using Element = uint8_t; // bool, addressable in the solver's vectors
  static constexpr solver::Direction Dir = solver::Direction::Backward;
  const llvm::SmallPtrSetImpl<const CFGBlock *> &Stops;
  uint8_t bottom() const { return false; }
  uint8_t boundary() const { return false; } // The exit returns normally.
  uint8_t merge(const CFGBlock *B,
                llvm::ArrayRef<solver::Neighbour<uint8_t>> Succs) const {
    if (Succs.empty())
      return false;
    for (const auto &S : Succs)
      if (!*S.Out && !escapesTry(B, S.Block))
        return false;
    return true;
  }
  void transfer(const CFGBlock *B, uint8_t &Doomed) {
    Doomed = Doomed || Stops.count(B);
  }
  bool equal(uint8_t A, uint8_t B) const { return A == B; }
  void widen(const CFGBlock *, uint8_t, uint8_t &) {}
};
} // namespace

llvm::SmallPtrSet<const CFGBlock *, 8>
doomedBlocks(const CFG &G,
             llvm::function_ref<bool(const CallExpr *)> FailStopCall,
             llvm::function_ref<bool(const CallExpr *)> EndsNormally) {
  const CFGBlock *Exit = &G.getExit();
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
  for (const CFGBlock *B : G) {
    if (B == Exit)
      continue;
    bool Stops = false, NormalEnd = false;
    for (const CFGElement &El : *B) {
      if (Stops || NormalEnd)
        break;
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt())) {
          NormalEnd = EndsNormally && EndsNormally(Call);
          Stops = !NormalEnd && FailStopCall(Call);
        }
    }
    Stops = Stops || (!NormalEnd && B->hasNoReturnElement());
    // A throw that leaves the function: the job ends unless a caller
    // catches it (callers check that through ThrowTaint).
    Stops = Stops || throwLeavesFunction(B, Exit);
    if (Stops)
      Doomed.insert(B);
  }
  // Least fixpoint from "not doomed": a block with successors is doomed
  // once all of them are.
  DoomedProblem Problem{Doomed};
  auto Sol = solver::solve(G, Problem);
  llvm::SmallPtrSet<const CFGBlock *, 8> Result;
  for (const CFGBlock *B : G)
    if (Sol.out(B))
      Result.insert(B);
  return Result;
}

} // namespace distlint
