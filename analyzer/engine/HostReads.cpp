//===- HostReads.cpp ------------------------------------------------------===//
#include "HostReads.h"
#include "UserCode.h"
#include "engine/cfg/CFGFacts.h"
#include "Construction.h"
#include "Devices.h"
#include "Values.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace distlint {

namespace {

/// A function whose body this TU does not show (a library or another file).
bool isOpaque(Engine &E, const FunctionDecl *FD) {
  const FunctionDecl *Def = FD->getDefinition();
  return !Def || !Def->getBody() || !isAnalyzedDecl(E, Def);
}

const FunctionDecl *calleeOf(Engine &E, const Expr *X) {
  if (const auto *Call = dyn_cast<CallExpr>(X))
    return E.resolveCallee(Call);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X))
    return CE->getConstructor();
  return nullptr;
}

bool before(const SourceManager &SM, const Stmt *A, const Stmt *B) {
  return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
}

/// Variables that hold what device work queued before Sync produces: host
/// buffers handed by pointer to library calls (async copies), and host
/// copies of tensors.
void pendingResults(Engine &E, const Stmt *Region, const CallExpr *Sync,
                    llvm::DenseSet<const VarDecl *> &Pending) {
  const SourceManager &SM = E.context().getSourceManager();
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (S == Sync)
      return;
    if (const auto *X = dyn_cast<Expr>(S); X && before(SM, S, Sync)) {
      if (const FunctionDecl *Callee = calleeOf(E, X);
          Callee && isOpaque(E, Callee)) {
        if (const auto *Call = dyn_cast<CallExpr>(X))
          for (const Expr *Arg : Call->arguments())
            if (Arg->getType()->isPointerType())
              if (const VarDecl *V = designatedVar(Arg))
                Pending.insert(V);
      }
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && before(SM, S, Sync))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          if (const Expr *Init = V->getInit())
            if (const auto *Call = dyn_cast<CallExpr>(stripValue(Init)))
              if (const FunctionDecl *Callee = E.resolveCallee(Call))
                if (E.api().has(Callee, api::Role::ImplicitSync) &&
                    isTensorType(E, V->getType()))
                  Pending.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Region);
}

/// Host buffers the device writes directly (mapped, managed or pinned
/// memory, HostVisibleAlloc rows), wherever in the function they were
/// allocated: a kernel may have written them before any sync.
void deviceVisibleHostMemory(Engine &E, const Stmt *Body,
                             llvm::DenseSet<const VarDecl *> &Pending) {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = E.resolveCallee(Call))
        if (const api::ApiEntry *Row =
                E.api().find(Callee, api::Role::HostVisibleAlloc))
          if (const VarDecl *V =
                  designatedVar(callArgument(Call, Callee, Row->Args.Out)))
            Pending.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
}

/// Is this use of a variable only an argument to a call we cannot see
/// (another library call or kernel launcher), rather than a host read?
bool handedToOpaqueCall(Engine &E, const Expr *Use) {
  const Stmt *Child = Use;
  const Stmt *P = E.parentStmt(Use);
  while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
    Child = P;
    P = E.parentStmt(P);
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  if (!Call || Call->getCallee() == Child)
    return false;
  const FunctionDecl *Callee = E.resolveCallee(Call);
  // MPI reads a send buffer on the host: `MPI_Allreduce(norm_h, ...)` after
  // copying the norm back is the host consuming it.
  for (const api::ApiEntry *Row : E.api().lookup(Callee))
    if (Row->Fam == api::Family::Mpi && Row->Args.Send >= 0 &&
        callArgument(Call, Callee, Row->Args.Send) == Child)
      return false;
  return Callee && isOpaque(E, Callee) &&
         !E.api().has(Callee, api::Role::TensorRead);
}

} // namespace

bool isDeviceWork(Engine &E, const Expr *X) {
  if (isa<CUDAKernelCallExpr>(X))
    return true;
  const FunctionDecl *Callee = calleeOf(E, X);
  if (!Callee)
    return false;
  using api::Role;
  for (const api::ApiEntry *Row : E.api().lookup(Callee))
    switch (Row->TheRole) {
    case Role::Collective:
    case Role::PointToPoint:
    case Role::TrainingStep:
    case Role::DeviceSync:
    case Role::StreamSync:
    case Role::EventSync:
    case Role::HostWaitOnDevice:
    case Role::CommInit:
    case Role::GroupEnd:
    case Role::DeviceLaunch:
      return true;
    default:
      break;
    }
  if (!isOpaque(E, Callee))
    return E.functionReaches(Callee, Role::Collective) ||
           E.functionReaches(Callee, Role::TrainingStep);
  return false;
}

bool hostReadsSyncedResult(Engine &E, const CallExpr *Sync, const Stmt *Loop) {
  const FunctionDecl *FD = E.enclosingFunction(Sync);
  FactsRef Facts = E.facts(FD);
  if (!Facts)
    return true; // Cannot tell: stay silent.
  llvm::DenseSet<const VarDecl *> Pending, SyncObjects;
  pendingResults(E, Loop ? Loop : FD->getBody(), Sync, Pending);
  deviceVisibleHostMemory(E, FD->getBody(), Pending);
  for (const Expr *Arg : Sync->arguments())
    if (const VarDecl *V = designatedVar(Arg))
      SyncObjects.insert(V);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Sync))
    if (const VarDecl *V = designatedVar(MC->getImplicitObjectArgument()))
      SyncObjects.insert(V);

  // Returns 1: read found, 0: path ends without a read, -1: keep going.
  auto Visit = [&](const Stmt *S) -> int {
    if (const auto *X = dyn_cast<Expr>(S)) {
      if (const FunctionDecl *Callee = calleeOf(E, X)) {
        if (E.api().has(Callee, api::Role::TensorRead))
          return 1;
        if (isDeviceWork(E, X))
          return 0;
        if (const auto *Call = dyn_cast<CallExpr>(X))
          for (const Expr *Arg : Call->arguments())
            if (const VarDecl *V = designatedVar(Arg); V && SyncObjects.count(V)) {
              // A library call the tables know reads the event or stream
              // (cudaEventElapsedTime); an unknown one that takes the stream
              // launches work on it.
              if (!E.api().lookup(Callee).empty())
                return 1;
              if (isOpaque(E, Callee))
                return 0;
            }
      }
      if (const auto *DR = dyn_cast<DeclRefExpr>(X))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
            V && Pending.count(V) && !handedToOpaqueCall(E, DR))
          return 1;
    }
    return -1;
  };

  const CFGBlock *Start = Facts->blockOf(Sync);
  if (!Start)
    return true;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  // Begin after the sync inside its block.
  unsigned Index = 0, SyncIndex = ~0u;
  for (const CFGElement &El : *Start) {
    if (auto CS = El.getAs<CFGStmt>(); CS && CS->getStmt() == Sync)
      SyncIndex = Index;
    ++Index;
  }
  Work.push_back({Start, SyncIndex == ~0u ? 0 : SyncIndex + 1});
  llvm::DenseSet<const CFGBlock *> Seen;
  while (!Work.empty()) {
    auto [B, From] = Work.pop_back_val();
    bool Ended = false;
    for (unsigned I = From; I < B->size() && !Ended; ++I) {
      auto CS = (*B)[I].getAs<CFGStmt>();
      if (!CS)
        continue;
      int R = Visit(CS->getStmt());
      if (R == 1)
        return true;
      if (R == 0)
        Ended = true;
    }
    if (Ended)
      continue;
    // The iteration ends at the loop's own header.
    if (Loop && B->getTerminatorStmt() == Loop && B != Start)
      continue;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs())
      if (const CFGBlock *SB = Succ.getReachableBlock())
        if (Seen.insert(SB).second) {
          if (Loop && SB->getTerminatorStmt() == Loop) {
            // Still scan the header's own statements (loop condition).
            Work.push_back({SB, 0});
            continue;
          }
          Work.push_back({SB, 0});
        }
  }
  return false;
}

} // namespace distlint
