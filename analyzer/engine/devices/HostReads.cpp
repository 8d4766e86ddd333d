//===- HostReads.cpp ------------------------------------------------------===//
#include "engine/devices/HostReads.h"
#include "engine/Construction.h"
#include "engine/UserCode.h"
#include "engine/Values.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/devices/Devices.h"
#include "engine/devices/HostDecisions.h"
#include "engine/devices/Syncs.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
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

/// Is this use the value a return statement hands back (copied or moved)?
bool isReturned(Engine &E, const Expr *Use) {
  const Stmt *P = E.parentStmt(Use);
  while (P && (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr,
                   CXXBindTemporaryExpr, ExprWithCleanups>(P) ||
               (isa<CXXConstructExpr>(P) &&
                cast<CXXConstructExpr>(P)->getNumArgs() == 1)))
    P = E.parentStmt(P);
  return isa_and_nonnull<ReturnStmt>(P);
}

/// The local object whose field an address designates (`&out.value`).
const VarDecl *addressedObject(const Expr *Arg) {
  const auto *U = dyn_cast<UnaryOperator>(stripValue(Arg));
  if (!U || U->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *X = stripValue(U->getSubExpr());
  while (const auto *M = dyn_cast<MemberExpr>(X)) {
    if (M->isArrow())
      return nullptr;
    X = stripValue(M->getBase());
  }
  const auto *DR = dyn_cast<DeclRefExpr>(X);
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && V->hasLocalStorage() ? V : nullptr;
}

/// Where device work leaves a result the host may read: variables, and
/// fields reached from a variable (`&model->mean_loss`).
struct PendingPlaces {
  llvm::DenseSet<const VarDecl *> Vars;
  llvm::DenseSet<std::pair<const VarDecl *, const FieldDecl *>> Fields;

  /// The place a pointer argument designates: `&x`, `x`, `&out.value` (out),
  /// `&m->f` / `&m.f` (m's field f), `p + i` (p), `v.data()` (v).
  void insertPointer(Engine &E, const Expr *Arg) {
    for (int Depth = 0; Arg && Depth < 8; ++Depth) {
      if (const VarDecl *V = designatedVar(Arg)) {
        Vars.insert(V);
        return;
      }
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(
              stripValue(Arg)->IgnoreParenCasts())) {
        const FunctionDecl *Callee = MC->getDirectCallee();
        if (Callee && E.api().has(Callee, api::Role::ElementStorage))
          if (const VarDecl *V = designatedVar(MC->getImplicitObjectArgument()))
            Vars.insert(V);
        return;
      }
      if (const VarDecl *B = addressedObject(Arg)) {
        Vars.insert(B); // `&out.value`: a field of a local.
        return;
      }
      const Expr *S = stripValue(Arg)->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(S);
          U && U->getOpcode() == UO_AddrOf)
        if (const auto *M =
                dyn_cast<MemberExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
          if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
            if (const VarDecl *Base = designatedVar(M->getBase())) {
              Fields.insert({Base, F});
              return;
            }
      const auto *BO = dyn_cast<BinaryOperator>(S);
      if (!BO || !BO->isAdditiveOp())
        return;
      Arg = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                     : BO->getRHS();
    }
  }
  /// Does this expression read one of the places (a variable reference, or
  /// the field through its variable)?
  const VarDecl *designates(const Expr *X) const {
    if (const auto *DR = dyn_cast<DeclRefExpr>(X))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && Vars.count(V))
        return V;
    if (const auto *M = dyn_cast<MemberExpr>(X))
      if (const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl()))
        if (const VarDecl *Base = designatedVar(M->getBase());
            Base && Fields.count({Base, F}))
          return Base;
    return nullptr;
  }
  bool holds(const VarDecl *V) const {
    if (Vars.count(V))
      return true;
    return llvm::any_of(Fields, [&](const auto &P) { return P.first == V; });
  }
};

/// Variables that hold what device work queued before Sync produces: host
/// buffers handed by pointer to library calls (async copies), and host
/// copies of tensors.
void pendingResults(Engine &E, const Stmt *Region, const CallExpr *Sync,
                    PendingPlaces &Pending) {
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
              Pending.insertPointer(E, Arg);
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
                  Pending.Vars.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Region);
}

/// Host buffers the device writes directly (mapped, managed or pinned
/// memory, HostVisibleAlloc rows), wherever in the function they were
/// allocated: a kernel may have written them before any sync.
void deviceVisibleHostMemory(Engine &E, const Stmt *Body,
                             PendingPlaces &Pending) {
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *Callee = E.resolveCallee(Call))
        if (const api::ApiEntry *Row =
                E.api().find(Callee, api::Role::HostVisibleAlloc))
          if (const VarDecl *V =
                  designatedVar(callArgument(Call, Callee, Row->Args.Out)))
            Pending.Vars.insert(V);
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
}

/// Is this use the target of a plain assignment (`x = 0`), not a read?
bool isOverwritten(Engine &E, const Expr *Use) {
  const Stmt *Child = Use;
  const Stmt *P = E.parentStmt(Use);
  while (P && isa<ParenExpr>(P)) {
    Child = P;
    P = E.parentStmt(P);
  }
  const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
  return BO && BO->getOpcode() == BO_Assign && BO->getLHS() == Child;
}

/// Is this use of a variable only an argument to a call we cannot see
/// (another library call or kernel launcher), rather than a host read?
bool handedToOpaqueCall(Engine &E, const Expr *Use) {
  const Stmt *Child = Use;
  const Stmt *P = E.parentStmt(Use);
  bool CopiedOut = false;
  while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
    // A value passed by copy (`std::isfinite(h)`) is read here: only a
    // buffer handed by address can be another call's to fill or read later.
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue &&
        !Cast->getType()->isPointerType())
      CopiedOut = true;
    Child = P;
    P = E.parentStmt(P);
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  if (!Call || Call->getCallee() == Child || CopiedOut)
    return false;
  // An operator of a host container (`host[0]`, `*it`) reads it here.
  if (isa<CXXOperatorCallExpr>(Call))
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

namespace {
/// What the host does after one call with the results it may read.
struct LevelUse {
  SyncedResult Kind = SyncedResult::Unread;
  bool ByValue = false;   ///< Handed back as the return value.
  uint64_t OutParams = 0; ///< Handed back through these parameters.
  /// Copies to the host right after the sync (`cudaMemcpy`, `t.cpu()`):
  /// they wait for the same work, so the sync is needed when they are.
  llvm::SmallVector<const CallExpr *, 2> CopiesAfter;
};

/// Bit I set when a place lies in (or behind) parameter I of FD that the
/// caller sees: a pointer or a non-const reference.
uint64_t outParamsHolding(const FunctionDecl *FD, const PendingPlaces &P) {
  uint64_t Mask = 0;
  for (unsigned I = 0; I < FD->getNumParams() && I < 64; ++I) {
    const ParmVarDecl *PD = FD->getParamDecl(I);
    QualType T = PD->getType();
    QualType Pointee = T->getPointeeType();
    // Handles (cudaStream_t, ncclComm_t: pointers to incomplete types)
    // are not data the device wrote.
    bool Visible = (T->isPointerType() || T->isReferenceType()) &&
                   !Pointee.isConstQualified() &&
                   (Pointee->isVoidType() || !Pointee->isIncompleteType());
    if (Visible && P.holds(PD))
      Mask |= uint64_t(1) << I;
  }
  return Mask;
}

/// Walks the CFG from just after After (a call in FD) to the next device
/// work, or the end of the iteration of Loop: does the host read one of
/// Pending, or use one of SyncObjects in a call that reads it?
LevelUse readsAfter(Engine &E, const FunctionDecl *FD,
                    const FunctionFacts &Facts, const CallExpr *After,
                    const Stmt *Loop, const PendingPlaces &Pending,
                    const llvm::DenseSet<const VarDecl *> &SyncObjects,
                    bool CopiesRead) {
  LevelUse Out;
  // Returns 1: read found, 0: path ends without a read, -1: keep going.
  auto Visit = [&](const Stmt *S) -> int {
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      // `return out;`: the caller gets the result.
      llvm::SmallVector<const VarDecl *, 4> Refs;
      if (Ret->getRetValue())
        collectVarRefs(Ret->getRetValue(), Refs);
      for (const VarDecl *V : Refs)
        Out.ByValue = Out.ByValue || Pending.holds(V);
      return 0;
    }
    if (const auto *X = dyn_cast<Expr>(S)) {
      if (const FunctionDecl *Callee = calleeOf(E, X)) {
        if (E.api().has(Callee, api::Role::TensorRead))
          return 1;
        // Right after the sync, a copy to the host (`t.cpu()`) takes what
        // it waited for; whether the copy is needed is asked of the copy.
        if (const auto *Call = dyn_cast<CallExpr>(X);
            CopiesRead && Call && syncAt(E, Call).Kind == SyncKind::Implicit) {
          Out.CopiesAfter.push_back(Call);
          return 0;
        }
        if (isDeviceWork(E, X))
          return 0;
        if (const auto *Call = dyn_cast<CallExpr>(X))
          for (const Expr *Arg : Call->arguments())
            if (const VarDecl *V = designatedVar(Arg);
                V && SyncObjects.count(V)) {
              // A library call the tables know reads the event or stream
              // (cudaEventElapsedTime); an unknown one that takes the stream
              // launches work on it.
              if (!E.api().lookup(Callee).empty())
                return 1;
              if (isOpaque(E, Callee))
                return 0;
            }
      }
      if (Pending.designates(X) && !handedToOpaqueCall(E, X) &&
          !isOverwritten(E, X)) {
        if (!isReturned(E, X))
          return 1;
        Out.ByValue = true;
      }
    }
    return -1;
  };
  const CFGBlock *Start = Facts.blockOf(After);
  if (!Start) {
    Out.Kind = SyncedResult::Read;
    return Out;
  }
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  // Begin after the call inside its block.
  unsigned Index = 0, AfterIndex = ~0u;
  for (const CFGElement &El : *Start) {
    if (auto CS = El.getAs<CFGStmt>(); CS && CS->getStmt() == After)
      AfterIndex = Index;
    ++Index;
  }
  Work.push_back({Start, AfterIndex == ~0u ? 0 : AfterIndex + 1});
  llvm::DenseSet<const CFGBlock *> Seen;
  while (!Work.empty()) {
    auto [B, From] = Work.pop_back_val();
    bool Ended = false;
    for (unsigned I = From; I < B->size() && !Ended; ++I) {
      auto CS = (*B)[I].getAs<CFGStmt>();
      if (!CS)
        continue;
      int R = Visit(CS->getStmt());
      if (R == 1) {
        Out.Kind = SyncedResult::Read;
        return Out;
      }
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
        if (Seen.insert(SB).second)
          Work.push_back({SB, 0}); // A loop header's condition is scanned.
  }
  // What the device wrote through a parameter the caller passed is the
  // caller's to read.
  Out.OutParams = outParamsHolding(FD, Pending);
  if (Out.ByValue || Out.OutParams)
    Out.Kind = SyncedResult::Returned;
  return Out;
}

LevelUse useAfterSync(Engine &E, const CallExpr *Sync, const Stmt *Loop) {
  const FunctionDecl *FD = E.enclosingFunction(Sync);
  FactsRef Facts = E.facts(FD);
  if (!Facts)
    return {SyncedResult::Read}; // Cannot tell: stay silent.
  PendingPlaces Pending;
  llvm::DenseSet<const VarDecl *> SyncObjects;
  pendingResults(E, Loop ? Loop : FD->getBody(), Sync, Pending);
  deviceVisibleHostMemory(E, FD->getBody(), Pending);
  for (const Expr *Arg : Sync->arguments())
    if (const VarDecl *V = designatedVar(Arg))
      SyncObjects.insert(V);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Sync))
    if (const VarDecl *V = designatedVar(MC->getImplicitObjectArgument()))
      SyncObjects.insert(V);
  return readsAfter(E, FD, *Facts, Sync, Loop, Pending, SyncObjects,
                    /*CopiesRead=*/true);
}

/// The caller's side of a helper that handed results back (Inner): the
/// variable its return value goes to, and what it passed for the out-
/// parameters; then does the host read them after Call?
LevelUse useAfterCall(Engine &E, const CallExpr *Call, const Stmt *Loop,
                      const LevelUse &Inner) {
  const FunctionDecl *FD = E.enclosingFunction(Call);
  FactsRef Facts = E.facts(FD);
  if (!Facts)
    return {SyncedResult::Read};
  PendingPlaces Pending;
  pendingResults(E, Loop ? Loop : FD->getBody(), Call, Pending);
  deviceVisibleHostMemory(E, FD->getBody(), Pending);
  const FunctionDecl *Callee = E.resolveCallee(Call);
  for (unsigned I = 0; Callee && I < 64; ++I)
    if (Inner.OutParams & (uint64_t(1) << I))
      if (const Expr *Arg = callArgument(Call, Callee, I)) {
        Pending.insertPointer(E, Arg);
        if (const VarDecl *V = baseVar(Arg)) // A reference parameter.
          Pending.Vars.insert(V);
      }
  if (Inner.ByValue) {
    // `auto tensors = test.getTensors();`, `tensors = test.getTensors();`.
    const Stmt *Child = Call;
    const Stmt *P = E.parentStmt(Call);
    while (P && (isa<ExprWithCleanups, MaterializeTemporaryExpr,
                     CXXBindTemporaryExpr, ImplicitCastExpr, ParenExpr>(P) ||
                 (isa<CXXConstructExpr>(P) &&
                  cast<CXXConstructExpr>(P)->getNumArgs() == 1))) {
      Child = P;
      P = E.parentStmt(P);
    }
    // An initializer's parent is its variable.
    for (const auto &Parent : E.context().getParents(*Child))
      if (const auto *V = Parent.get<VarDecl>())
        Pending.Vars.insert(V);
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
        BO && BO->isAssignmentOp() && BO->getRHS() == Child)
      if (const VarDecl *V = designatedVar(BO->getLHS()))
        Pending.Vars.insert(V);
    if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(P);
        OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2)
      if (const VarDecl *V = designatedVar(OC->getArg(0)))
        Pending.Vars.insert(V);
    // `return helper();`: handed on again.
    if (isa_and_nonnull<ReturnStmt>(P))
      return {SyncedResult::Returned, true, 0};
  }
  return readsAfter(E, FD, *Facts, Call, Loop, Pending, {},
                    /*CopiesRead=*/false);
}
} // namespace

SyncedResult syncedResultUse(Engine &E, const CallExpr *Sync,
                             const Stmt *Loop) {
  LevelUse Use = useAfterSync(E, Sync, Loop);
  // Without the step to ask the copies of, a copy counts as a read.
  if (!Use.CopiesAfter.empty())
    return SyncedResult::Read;
  return Use.Kind;
}

bool hostReadsSyncedResult(Engine &E, const CallExpr *Sync, const Stmt *Loop) {
  return syncedResultUse(E, Sync, Loop) == SyncedResult::Read;
}

bool hostReadsSyncedResult(Engine &E, const CallExpr *Sync,
                           const StepContext &Step) {
  LevelUse Use = useAfterSync(E, Sync, Step.Via.empty() ? Step.Loop : nullptr);
  if (Use.Kind == SyncedResult::Read)
    return true;
  // A copy right after the sync waits for the same work: the sync is
  // needed when the host decides on what the copy brings.
  for (const CallExpr *Copy : Use.CopiesAfter)
    if (hostDecidesOnCopy(E, Copy, Step))
      return true;
  // Up the calls from the loop to the sync, innermost first, while each
  // hands the results back to its caller.
  for (size_t K = Step.Via.size(); K-- > 0;) {
    if (Use.Kind != SyncedResult::Returned)
      break;
    const auto *Call = dyn_cast<CallExpr>(Step.Via[K]);
    if (!Call)
      return false; // A lambda run by the loop: nothing reads its result.
    Use = useAfterCall(E, Call, K == 0 ? Step.Loop : nullptr, Use);
  }
  return Use.Kind == SyncedResult::Read;
}

} // namespace distlint
