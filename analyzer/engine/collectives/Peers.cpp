//===- Peers.cpp - Sends and receives that only one side makes ------------===//
//
// A send and a receive pair up when both peers make them. In an exchange
// with each peer (`for (p...) { send(p); recv(p); }`) a rank that skips its
// send to p by a test of its own data (nothing routed there) leaves p's
// receive from it waiting forever, unless p skips that receive by the same
// knowledge, which p can only have from the sender: the receive would then
// be conditional too. Branches on the rank are how peers pair up (rank 0
// sends, rank 1 receives) and are not asked here.
//
//===----------------------------------------------------------------------===//
#include "engine/Engine.h"
#include "engine/EngineInternals.h"
#include "engine/collectives/RankClasses.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace distlint {

namespace {
struct PeerOp {
  const CallExpr *Call;
  bool Sends;
  const VarDecl *Peer;
  const Decl *Comm;
  const CFGBlock *Block;
};

const VarDecl *peerVariable(const Expr *X) {
  const auto *DR =
      X ? dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts()) : nullptr;
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}
} // namespace

std::vector<Engine::UnmatchedPeer>
Engine::unmatchedPointToPoint(const FunctionDecl *FD) {
  std::vector<UnmatchedPeer> Out;
  const FunctionDecl *Def = FD->getDefinition();
  llvm::SmallVector<const CallExpr *, 32> Calls;
  collectBodyCalls(Def ? Def : FD, Calls);
  llvm::SmallVector<PeerOp, 8> Ops;
  for (const CallExpr *Call : Calls) {
    const api::ApiEntry *Row = apiRole(Call, api::Role::PointToPoint);
    if (!Row)
      continue;
    const bool Sends = Row->Args.Send >= 0;
    if (Sends == (Row->Args.Recv >= 0 || Row->Args.RecvVaries >= 0))
      continue; // Both or neither (a combined send-receive).
    auto ArgAt = [&](int I) -> const Expr * {
      return I >= 0 && I < (int)Call->getNumArgs() ? Call->getArg(I) : nullptr;
    };
    const VarDecl *Peer = peerVariable(ArgAt(Row->Args.Peer));
    if (!Peer)
      continue;
    Ops.push_back(
        {Call, Sends, Peer, communicatorDecl(ArgAt(Row->Args.Comm)), nullptr});
  }
  if (Ops.size() < 2)
    return Out;
  P->prepare();
  ResidentResult R = P->resident(FD);
  if (!R)
    return Out;
  for (PeerOp &Op : Ops)
    Op.Block = R.facts().blockOf(Op.Call);
  // The branches an operation depends on that differ between ranks (also
  // through what the callers pass), other than tests of the rank itself,
  // by which peers pair up.
  auto DataBranches = [&](const CFGBlock *B) {
    llvm::SmallVector<std::pair<const CFGBlock *, VaryOrigin>, 4> Found;
    for (const CFGBlock *Dep : R.body().liveControlDependencies(B)) {
      auto It = R.body().BranchTaint.find(Dep);
      if (It == R.body().BranchTaint.end() || !It->second.depends())
        continue;
      const Stmt *Branch = Dep->getTerminatorStmt();
      if (!Branch || collectives::decidedByRankClasses(*this, FD, Branch))
        continue;
      if (It->second.Vary) {
        Found.push_back({Dep, It->second.Origin});
      } else if (auto Passed = paramVaries(FD, It->second.Params, 0,
                                           It->second.ContentOnly,
                                           /*SkipDivergentCalls=*/true)) {
        Found.push_back({Dep, Passed->first});
      }
    }
    return Found;
  };
  // Asked once per operation: a branch on a parameter asks the callers.
  std::vector<llvm::SmallVector<std::pair<const CFGBlock *, VaryOrigin>, 4>>
      BranchesOf;
  for (const PeerOp &Op : Ops)
    BranchesOf.push_back(Op.Block ? DataBranches(Op.Block)
                                  : decltype(DataBranches(Op.Block))());
  for (size_t I = 0; I < Ops.size(); ++I) {
    const PeerOp &Op = Ops[I];
    if (!Op.Block)
      continue;
    const auto &Branches = BranchesOf[I];
    for (size_t J = 0; J < Ops.size(); ++J) {
      const PeerOp &Other = Ops[J];
      if (Other.Sends == Op.Sends || Other.Peer != Op.Peer ||
          Other.Comm != Op.Comm || !Other.Block)
        continue;
      // The partner is posted whatever any rank's data says.
      if (!BranchesOf[J].empty())
        continue;
      for (const auto &[Dep, Origin] : Branches) {
        const Stmt *Branch = Dep->getTerminatorStmt();
        if (isLoopStmt(Branch))
          continue;
        UnmatchedPeer U;
        U.Skipped = Op.Call;
        U.Partner = Other.Call;
        U.Condition = dyn_cast_or_null<Expr>(
            const_cast<CFGBlock *>(Dep)->getTerminatorCondition(true));
        U.Origin = Origin;
        Out.push_back(U);
        break;
      }
      if (!Out.empty() && Out.back().Skipped == Op.Call)
        break;
    }
  }
  return Out;
}

} // namespace distlint
