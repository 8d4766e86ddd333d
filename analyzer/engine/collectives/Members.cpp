//===- Members.cpp - Collectives among a sub-communicator's members -------===//
//
// A collective on a communicator built by splitting waits for that
// communicator's members only, so the world's rank classes say nothing of
// it. What still tells its members apart is their rank in it: a branch on
// that rank around the collective leaves some members waiting for others
// that never come.
//
//===----------------------------------------------------------------------===//
#include "engine/Engine.h"
#include "engine/EngineInternals.h"
#include "engine/collectives/SequenceBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distlint {

std::vector<const CallExpr *>
Engine::subCommunicatorCollectives(const FunctionDecl *FD) {
  std::vector<const CallExpr *> Out;
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  for (const CallExpr *Call : Calls)
    if (apiRole(Call, api::Role::Collective) && isOnSubCommunicator(Call))
      Out.push_back(Call);
  return Out;
}

std::optional<Engine::Divergence>
Engine::memberDivergenceAt(const CallExpr *Collective) {
  const api::ApiEntry *Entry = apiRole(Collective, api::Role::Collective);
  const FunctionDecl *FD = enclosingFunction(Collective);
  if (!Entry || !FD)
    return std::nullopt;
  const Decl *Comm =
      communicatorDecl(collectives::communicatorOf(Collective, Entry));
  if (!Comm)
    return std::nullopt;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return std::nullopt;
  const CFGBlock *B = R.facts().blockOf(Collective);
  if (!B)
    return std::nullopt;
  // The other calls that may issue a collective on it: a branch one of them
  // shares may give each arm its own (`if (r == 0) reduce_root(); else
  // reduce_leaf();`), which is not compared here.
  llvm::SmallVector<const CFGBlock *, 8> Others;
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  for (const CallExpr *Call : Calls) {
    if (Call == Collective)
      continue;
    bool Shares = false;
    if (const api::ApiEntry *E = apiRole(Call, api::Role::Collective))
      Shares = communicatorDecl(collectives::communicatorOf(Call, E)) == Comm;
    else if (auto Site = collectiveAt(Call))
      Shares = true; // A helper: which communicators it uses is not asked.
    if (const CFGBlock *CB = Shares ? R.facts().blockOf(Call) : nullptr)
      Others.push_back(CB);
  }
  // A copy: the cache may grow while the others' dependencies are asked.
  const std::vector<const CFGBlock *> Deps =
      R.body().liveControlDependencies(B);
  for (const CFGBlock *Dep : Deps) {
    auto It = R.body().BranchTaint.find(Dep);
    if (It == R.body().BranchTaint.end() || !It->second.Vary)
      continue;
    const VaryOrigin &O = It->second.Origin;
    if (O.Kind != VaryKind::Rank || O.Comm != Comm)
      continue;
    if (llvm::any_of(Others, [&](const CFGBlock *Other) {
          return llvm::is_contained(R.body().liveControlDependencies(Other),
                                    Dep);
        }))
      continue;
    Divergence D;
    D.Branch = Dep->getTerminatorStmt();
    D.Condition = dyn_cast_or_null<Expr>(
        const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
    D.IsLoop = isLoopStmt(D.Branch) || Dep == B;
    D.Origin = O;
    D.AmongMembers = true;
    return D;
  }
  return std::nullopt;
}

} // namespace distlint
