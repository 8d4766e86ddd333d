//===- TorchHooks.cpp - LibTorch c10d process groups, recorded and forwarded
//===//
//
// Collectives are virtual calls (ProcessGroup::allreduce → the backend's
// override), so they cannot be caught at the caller. But libtorch_cpu.so
// (and libtorch_cuda.so) fill the backends' vtable slots through dynamic
// relocations (R_X86_64_64) against the methods' default-visibility symbols,
// and the dynamic linker resolves those to the first definition in the
// lookup order: a preloaded one. So the hooks below are defined under the
// methods' mangled names, and every call through the vtable of an unmodified
// ProcessGroupGloo or ProcessGroupNCCL lands here; REAL() is the next
// definition (the library's own). This is independent of how NCCL is linked:
// ProcessGroupNCCL is recorded even when NCCL is static in libtorch_cuda.so.
//
// Calling convention (Itanium C++ ABI, x86-64): a method returning
// c10::intrusive_ptr<Work> (not trivially copyable) gets the return slot as a
// hidden first argument and returns its address; `this` follows; objects
// passed by value that are not trivially copyable (exception_ptr,
// intrusive_ptr) are passed as pointers. The hooks spell exactly that with
// opaque pointers; the tensors and options are read by libdistlint-rt-torch.so
// (built against the LibTorch headers, see TorchAbi.h).
//
// Completion: the returned Work is remembered; it completes when
// Work::wait returns, Work::isCompleted says so, or Gloo's worker finishes
// it (AsyncWork::finishWorkGloo, called through the PLT). Work::wait is
// watched while it blocks, like MPI_Wait.
//
//===----------------------------------------------------------------------===//
#include "Intercept.h"
#include "Runtime.h"
#include "TorchAbi.h"
#include "TorchHelper.h"

#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

using namespace distlint::rt;

namespace {

/// What the LibTorch method hooks forward to (Intercept.h). A method hook
/// without a definition behind it has nothing to return: it stops.
struct TorchFamily {
  static constexpr const char *Api = "LibTorch method";
  static constexpr const char *const Sonames[] = {
      "libtorch_cpu.so", "libtorch_cuda.so", "libtorch.so", nullptr};
  static constexpr const char *RealPrefix = "";
  static constexpr bool MustExist = true;
};
using Family = TorchFamily;

enum class Backend { Gloo, Nccl };

// ---- Process groups ---------------------------------------------------------

std::atomic<uint64_t> Constructed[2];

uint64_t backendTag(Backend B) {
  return B == Backend::Gloo ? 0x476c6f6full : 0x4e43434cull;
}

/// A group constructed here: every member constructs its groups in the
/// same order, so (backend, ordinal, size) is the same id on all of them.
CommState *registerGroup(const void *Self, Backend B, int Rank, int Size) {
  uint64_t Ordinal = Constructed[int(B)].fetch_add(1) + 1;
  uint64_t Id = hashMix(hashMix(backendTag(B), Ordinal), uint64_t(Size));
  return addComm(Api::C10d, uintptr_t(Self), Id, Rank, Size);
}

/// The group's state; one met first in a call (constructed before the
/// library was loaded) is adopted.
CommState *groupState(const void *Self) {
  if (CommState *C = findComm(Api::C10d, uintptr_t(Self)))
    return C;
  int32_t Rank = -1, Size = 0;
  if (torchHelper().Group)
    torchHelper().Group(Self, &Rank, &Size);
  CommState *C =
      addComm(Api::C10d, uintptr_t(Self), adoptedCommId(Api::C10d), Rank, Size);
  CallSite None;
  recordCommCreate(C, OpCode::None, 0, 0, None, 0);
  return C;
}

// ---- Ending the job (DISTLINT_RT_ABORT=1) -----------------------------------
// Gloo has no communicator abort. Under distlint-rt run the launcher ends
// the ranks; under another launcher (torchrun) this rank ends itself, and
// the launcher then ends the others as for any failed worker.
void abortC10d(CommState *) {
  logLine("rank %d: ending this process (SIGTERM): c10d process groups have "
          "no abort",
          globalRank());
  kill(getpid(), SIGTERM);
}

__attribute__((constructor)) void registerC10dAbort() {
  if (!std::getenv("DISTLINT_RT_LAUNCHED"))
    setAbortHandler(Api::C10d, abortC10d);
}

// ---- Work objects -----------------------------------------------------------

/// Work* -> the slot of the operation it completes. Gloo's worker may
/// finish a Work before the issuing hook got to remember it: that is kept
/// as a "finished" mark until the hook comes (or the Work is destroyed).
constexpr uint64_t kFinished = ~uint64_t(0);
std::mutex WorkMu;
std::unordered_map<const void *, uint64_t> *Works;

void workIssued(const void *Work, uint64_t Slot) {
  TraceWriter *T = traceIfOpen();
  std::lock_guard<std::mutex> Lock(WorkMu);
  if (!Works)
    Works = new std::unordered_map<const void *, uint64_t>();
  auto [It, Fresh] = Works->emplace(Work, Slot);
  if (!Fresh && It->second == kFinished) {
    Works->erase(It);
    if (T)
      markCompleted(*T, Slot);
  } else if (!Fresh) {
    It->second = Slot; // A Work returned by two calls (coalescing): the last.
  }
}

/// Gloo finished the Work (or wait/isCompleted saw it done).
void workDone(const void *Work, bool Failed, bool Early) {
  TraceWriter *T = traceIfOpen();
  if (!T)
    return;
  std::lock_guard<std::mutex> Lock(WorkMu);
  if (!Works)
    Works = new std::unordered_map<const void *, uint64_t>();
  auto It = Works->find(Work);
  if (It == Works->end()) {
    if (Early && Works->size() < (1u << 20))
      Works->emplace(Work, kFinished);
    return;
  }
  if (It->second != kFinished) {
    if (TraceRecord *R = T->recordAt(It->second)) {
      if (Failed)
        R->Progress.fetch_or(StateFailed, std::memory_order_release);
      else
        markCompleted(*T, It->second);
    }
  }
  Works->erase(It);
}

void workForgotten(const void *Work) {
  std::lock_guard<std::mutex> Lock(WorkMu);
  if (Works)
    Works->erase(Work);
}

/// The slot of the operation a Work completes, if known.
bool workSlot(const void *Work, uint64_t &Slot) {
  std::lock_guard<std::mutex> Lock(WorkMu);
  if (!Works)
    return false;
  auto It = Works->find(Work);
  if (It == Works->end() || It->second == kFinished)
    return false;
  Slot = It->second;
  return true;
}

// ---- Recording --------------------------------------------------------------

/// Finishes the record even when the real call throws (c10::Error): this
/// file is built with unwind tables and cleanups, never catches.
struct IssueGuard {
  OpHandle &H;
  bool Returned = false;
  ~IssueGuard() {
    if (!Returned && H)
      endOpIssued(H, -1, /*Failed=*/true);
  }
};

/// A collective or point-to-point method; Real returns the Work slot.
template <class Call>
void *recordGroupCall(void *HookFrame, const void *Self, OpCode Op,
                      int32_t Peer, int32_t Tag, const DlrtTorchArgs &Args,
                      void *Ret, Call &&Real) {
  TraceWriter *T = trace();
  if (!T || insideHook())
    return Real();
  HookScope Scope;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  CommState *C = groupState(Self);
  OpDesc D;
  D.Op = Op;
  D.Comm = C;
  D.Peer = Peer;
  DlrtTorchDesc Desc{0, -1, -1, -1, 0, 0};
  if (torchHelper().Describe &&
      torchHelper().Describe(int(Op), &Args, &Desc) == 0) {
    D.Count = Desc.Count;
    D.DataType = Desc.DataType;
    D.RedOp = Desc.RedOp;
    D.Aux = Desc.Shape;
    if (Desc.Root >= 0)
      D.Peer = Desc.Root;
  }
  D.Tag = Tag >= 0 ? Tag : Desc.Tensors;
  OpCategory Cat = opInfo(Op).Category;
  if (C) {
    bool PeerOk = Peer >= 0 && Peer < C->Size;
    if (Cat == OpCategory::Collective)
      D.Seq = C->CollSeq.fetch_add(1, std::memory_order_relaxed) + 1;
    else if (Cat == OpCategory::Send && PeerOk)
      D.Seq = C->SendSeq[Peer].fetch_add(1, std::memory_order_relaxed) + 1;
    else if (Cat == OpCategory::Recv && PeerOk)
      D.Seq = C->RecvSeq[Peer].fetch_add(1, std::memory_order_relaxed) + 1;
    else if (Cat == OpCategory::Recv)
      D.Seq = C->AnySourceSeq.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  OpHandle H = beginOp(*T, D, Site, /*Track=*/false);
  IssueGuard Guard{H};
  void *R = Real();
  Guard.Returned = true;
  endOpIssued(H, 0, false);
  if (const void *Work = *static_cast<void *const *>(Ret))
    workIssued(Work, H.Slot);
  return R;
}

struct WaitGuard {
  OpHandle &H;
  bool Returned = false;
  ~WaitGuard() {
    if (!Returned && H)
      endOpBlocking(H, -1, /*Failed=*/true);
  }
};

} // namespace

// ---- Hooks ------------------------------------------------------------------
// INTERCEPTOR_AS(Return, Name, Symbol, Params...) (Intercept.h) defines the
// hook Name exported as the method's mangled Symbol; REAL(Name) is the
// definition it hides.

#define GLOO "_ZN4c10d16ProcessGroupGloo"
#define NCCL "_ZN4c10d16ProcessGroupNCCL"
// Parameter spellings of the mangled signatures (shared by both backends).
#define VEC "RSt6vectorIN2at6TensorESaIS3_EE"

// Backend-generic bodies: one per signature shape.
#define GROUP_CALL(Op, Peer, Tag, First, Second, Options, RealCall)            \
  recordGroupCall(HOOK_FRAME, Self, OpCode::Op, Peer, Tag,                     \
                  DlrtTorchArgs{First, Second, Options}, Ret,                  \
                  [&] { return RealCall; })

// Each collective, for Gloo and NCCL (the mangled names differ only in the
// class name, which has the same length, so the substitutions agree).
#define C10D_VEC_OPTS(Method, Mangled, Op)                                     \
  INTERCEPTOR_AS(void *, dlrt_gloo_##Method, GLOO Mangled, void *Ret,          \
                 void *Self, void *Tensors, const void *Opts) {                \
    return GROUP_CALL(Op, -1, -1, Tensors, nullptr, Opts,                      \
                      REAL(dlrt_gloo_##Method)(Ret, Self, Tensors, Opts));     \
  }                                                                            \
  INTERCEPTOR_AS(void *, dlrt_nccl_##Method, NCCL Mangled, void *Ret,          \
                 void *Self, void *Tensors, const void *Opts) {                \
    return GROUP_CALL(Op, -1, -1, Tensors, nullptr, Opts,                      \
                      REAL(dlrt_nccl_##Method)(Ret, Self, Tensors, Opts));     \
  }
#define C10D_TWO_OPTS(Method, Mangled, Op)                                     \
  INTERCEPTOR_AS(void *, dlrt_gloo_##Method, GLOO Mangled, void *Ret,          \
                 void *Self, void *First, void *Second, const void *Opts) {    \
    return GROUP_CALL(                                                         \
        Op, -1, -1, First, Second, Opts,                                       \
        REAL(dlrt_gloo_##Method)(Ret, Self, First, Second, Opts));             \
  }                                                                            \
  INTERCEPTOR_AS(void *, dlrt_nccl_##Method, NCCL Mangled, void *Ret,          \
                 void *Self, void *First, void *Second, const void *Opts) {    \
    return GROUP_CALL(                                                         \
        Op, -1, -1, First, Second, Opts,                                       \
        REAL(dlrt_nccl_##Method)(Ret, Self, First, Second, Opts));             \
  }

C10D_VEC_OPTS(allreduce, "9allreduceE" VEC "RKNS_16AllreduceOptionsE",
              C10dAllreduce)
C10D_VEC_OPTS(allreduce_coalesced,
              "19allreduce_coalescedE" VEC "RKNS_25AllreduceCoalescedOptionsE",
              C10dAllreduceCoalesced)
C10D_VEC_OPTS(broadcast, "9broadcastE" VEC "RKNS_16BroadcastOptionsE",
              C10dBroadcast)
C10D_VEC_OPTS(reduce, "6reduceE" VEC "RKNS_13ReduceOptionsE", C10dReduce)
C10D_TWO_OPTS(allgather,
              "9allgatherERSt6vectorIS1_IN2at6TensorESaIS3_EESaIS5_EERS5_RKNS_"
              "16AllgatherOptionsE",
              C10dAllgather)
C10D_TWO_OPTS(
    allgather_coalesced,
    "19allgather_coalescedERSt6vectorIS1_IN2at6TensorESaIS3_EESaIS5_EERS5_RKNS_"
    "16AllgatherOptionsE",
    C10dAllgatherCoalesced)
C10D_TWO_OPTS(gather,
              "6gatherERSt6vectorIS1_IN2at6TensorESaIS3_EESaIS5_EERS5_RKNS_"
              "13GatherOptionsE",
              C10dGather)
C10D_TWO_OPTS(scatter,
              "7scatterERSt6vectorIN2at6TensorESaIS3_EERS1_IS5_SaIS5_EERKNS_"
              "14ScatterOptionsE",
              C10dScatter)
C10D_TWO_OPTS(
    reduce_scatter,
    "14reduce_scatterERSt6vectorIN2at6TensorESaIS3_EERS1_IS5_SaIS5_EERKNS_"
    "20ReduceScatterOptionsE",
    C10dReduceScatter)
C10D_TWO_OPTS(allgather_base,
              "15_allgather_baseERN2at6TensorES3_RKNS_16AllgatherOptionsE",
              C10dAllgatherBase)
C10D_TWO_OPTS(
    reduce_scatter_base,
    "20_reduce_scatter_baseERN2at6TensorES3_RKNS_20ReduceScatterOptionsE",
    C10dReduceScatterBase)

#define C10D_ALLTOALL_BASE(Backend, Prefix)                                    \
  INTERCEPTOR_AS(void *, dlrt_##Backend##_alltoall_base,                       \
                 Prefix                                                        \
                 "13alltoall_baseERN2at6TensorES3_RSt6vectorIlSaIlEES7_"       \
                 "RKNS_15AllToAllOptionsE",                                    \
                 void *Ret, void *Self, void *Out, void *In, void *OutSplit,   \
                 void *InSplit, const void *Opts) {                            \
    return GROUP_CALL(C10dAlltoallBase, -1, -1, Out, In, Opts,                 \
                      REAL(dlrt_##Backend##_alltoall_base)(                    \
                          Ret, Self, Out, In, OutSplit, InSplit, Opts));       \
  }
C10D_ALLTOALL_BASE(gloo, GLOO)
C10D_ALLTOALL_BASE(nccl, NCCL)

#define C10D_BARRIER(Backend, Prefix)                                          \
  INTERCEPTOR_AS(void *, dlrt_##Backend##_barrier,                             \
                 Prefix "7barrierERKNS_14BarrierOptionsE", void *Ret,          \
                 void *Self, const void *Opts) {                               \
    return GROUP_CALL(C10dBarrier, -1, -1, nullptr, nullptr, Opts,             \
                      REAL(dlrt_##Backend##_barrier)(Ret, Self, Opts));        \
  }
C10D_BARRIER(gloo, GLOO)
C10D_BARRIER(nccl, NCCL)

#define C10D_P2P(Backend, Prefix)                                              \
  INTERCEPTOR_AS(void *, dlrt_##Backend##_send, Prefix "4sendE" VEC "ii",      \
                 void *Ret, void *Self, void *Tensors, int Dst, int Tag) {     \
    return GROUP_CALL(                                                         \
        C10dSend, Dst, Tag, Tensors, nullptr, nullptr,                         \
        REAL(dlrt_##Backend##_send)(Ret, Self, Tensors, Dst, Tag));            \
  }                                                                            \
  INTERCEPTOR_AS(void *, dlrt_##Backend##_recv, Prefix "4recvE" VEC "ii",      \
                 void *Ret, void *Self, void *Tensors, int Src, int Tag) {     \
    return GROUP_CALL(                                                         \
        C10dRecv, Src, Tag, Tensors, nullptr, nullptr,                         \
        REAL(dlrt_##Backend##_recv)(Ret, Self, Tensors, Src, Tag));            \
  }                                                                            \
  INTERCEPTOR_AS(void *, dlrt_##Backend##_recvAnysource,                       \
                 Prefix "13recvAnysourceE" VEC "i", void *Ret, void *Self,     \
                 void *Tensors, int Tag) {                                     \
    return GROUP_CALL(                                                         \
        C10dRecvAnysource, -1, Tag, Tensors, nullptr, nullptr,                 \
        REAL(dlrt_##Backend##_recvAnysource)(Ret, Self, Tensors, Tag));        \
  }
C10D_P2P(gloo, GLOO)
C10D_P2P(nccl, NCCL)

// Construction: (this, const intrusive_ptr<Store>&, int rank, int size,
// intrusive_ptr<Options> by value, i.e. by address).
#define C10D_CONSTRUCTOR(Name, Prefix, Which, Tag, Op)                         \
  INTERCEPTOR_AS(                                                              \
      void, dlrt_##Name##_ctor##Which,                                         \
      Prefix                                                                   \
      "C" #Which "ERKN3c1013intrusive_ptrINS_5StoreENS1_6detail34intrusive_"   \
      "target_default_null_typeIS3_EEEEiiNS2_INS0_7OptionsENS5_ISA_EEEE",      \
      void *Self, const void *Store, int Rank, int Size, void *Options) {      \
    REAL(dlrt_##Name##_ctor##Which)(Self, Store, Rank, Size, Options);         \
    if (insideHook() || !trace())                                              \
      return;                                                                  \
    HookScope Scope;                                                           \
    CallSite Site;                                                             \
    captureCallSite(HOOK_FRAME, Site);                                         \
    recordCommCreate(registerGroup(Self, Backend::Tag, Rank, Size),            \
                     OpCode::Op, 0, 0, Site, 0);                               \
  }
C10D_CONSTRUCTOR(gloo, GLOO, 1, Gloo, C10dCreateGloo)
C10D_CONSTRUCTOR(gloo, GLOO, 2, Gloo, C10dCreateGloo)
C10D_CONSTRUCTOR(nccl, NCCL, 1, Nccl, C10dCreateNccl)
C10D_CONSTRUCTOR(nccl, NCCL, 2, Nccl, C10dCreateNccl)

// ---- Work completion --------------------------------------------------------
#define WAIT_ARGS "ENSt6chrono8durationIlSt5ratioILl1ELl1000EEEE"

/// Work::wait (and the overrides of Gloo's send/recv works and WorkNCCL):
/// watched while it blocks; returning means the operation is done.
template <class Call>
bool recordWait(void *HookFrame, const void *Work, Call &&Real) {
  TraceWriter *T = trace();
  if (!T || insideHook())
    return Real();
  HookScope Scope;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  OpDesc D;
  D.Op = OpCode::C10dWorkWait;
  uint64_t Slot;
  if (workSlot(Work, Slot))
    if (TraceRecord *Op = T->recordAt(Slot)) {
      D.Aux = Slot + 1; // The operation waited for; 0 means none.
      D.Peer = Op->Peer;
    }
  OpHandle H = beginOp(*T, D, Site, /*Track=*/true);
  WaitGuard Guard{H};
  bool R = Real();
  Guard.Returned = true;
  endOpBlocking(H, 0, false);
  workDone(Work, false, false);
  return R;
}

#define C10D_WAIT(Name, Symbol)                                                \
  INTERCEPTOR_AS(bool, Name, Symbol WAIT_ARGS, void *Self, long TimeoutMs) {   \
    return recordWait(HOOK_FRAME, Self,                                        \
                      [&] { return REAL(Name)(Self, TimeoutMs); });            \
  }
C10D_WAIT(dlrt_work_wait, "_ZN4c10d4Work4wait")
C10D_WAIT(dlrt_gloo_send_work_wait, GLOO "8SendWork4wait")
C10D_WAIT(dlrt_gloo_recv_work_wait, GLOO "8RecvWork4wait")
C10D_WAIT(dlrt_nccl_work_wait, NCCL "8WorkNCCL4wait")

#define C10D_IS_COMPLETED(Name, Symbol)                                        \
  INTERCEPTOR_AS(bool, Name, Symbol, void *Self) {                             \
    bool Done = REAL(Name)(Self);                                              \
    if (Done && !insideHook())                                                 \
      workDone(Self, false, false);                                            \
    return Done;                                                               \
  }
C10D_IS_COMPLETED(dlrt_work_is_completed, "_ZN4c10d4Work11isCompletedEv")
C10D_IS_COMPLETED(dlrt_nccl_work_is_completed, NCCL "8WorkNCCL11isCompletedEv")

// The work has run when its worker finishes it; it is recorded done first,
// because once REAL() completes its future the issuing thread goes on while
// the worker still holds the work's tensors. Recording after that would
// widen the window in which the program may destroy the process group with
// the GIL held while the worker drops the last reference to a Python tensor
// (a teardown deadlock of LibTorch 1.13).
INTERCEPTOR_AS(void, dlrt_gloo_finish_work, GLOO "9AsyncWork14finishWorkGlooEv",
               void *Self) {
  workDone(Self, false, /*Early=*/true);
  REAL(dlrt_gloo_finish_work)(Self);
}
INTERCEPTOR_AS(
    void, dlrt_gloo_finish_work_error,
    GLOO "9AsyncWork19finishWorkGlooErrorENSt15__exception_ptr13exception_ptrE",
    void *Self, void *Error) {
  workDone(Self, true, /*Early=*/true);
  REAL(dlrt_gloo_finish_work_error)(Self, Error);
}
INTERCEPTOR_AS(void, dlrt_work_destroyed, "_ZN4c10d4WorkD2Ev", void *Self) {
  workForgotten(Self);
  REAL(dlrt_work_destroyed)(Self);
}
