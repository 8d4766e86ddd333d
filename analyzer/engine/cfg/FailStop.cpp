//===- FailStop.cpp -------------------------------------------------------===//
#include "engine/cfg/FailStop.h"

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

llvm::SmallPtrSet<const CFGBlock *, 8>
doomedBlocks(const CFG &G,
             llvm::function_ref<bool(const CallExpr *)> FailStopCall) {
  const CFGBlock *Exit = &G.getExit();
  llvm::SmallPtrSet<const CFGBlock *, 8> Doomed;
  for (const CFGBlock *B : G) {
    if (B == Exit)
      continue;
    bool Stops = B->hasNoReturnElement();
    for (const CFGElement &El : *B) {
      if (Stops)
        break;
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          Stops = FailStopCall(Call);
    }
    // A throw that leaves the function: the job ends unless a caller
    // catches it (callers check that through ThrowTaint).
    Stops = Stops || throwLeavesFunction(B, Exit);
    if (Stops)
      Doomed.insert(B);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const CFGBlock *B : G) {
      if (B == Exit || Doomed.count(B))
        continue;
      bool Any = false, All = true;
      for (const CFGBlock *Succ : B->succs())
        if (Succ) {
          Any = true;
          All = All && Doomed.count(Succ);
        }
      if (Any && All) {
        Doomed.insert(B);
        Changed = true;
      }
    }
  }
  return Doomed;
}

} // namespace distlint
