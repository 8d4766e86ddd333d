//===- NcclHooks.cpp - NCCL entry points, recorded and forwarded ----------===//
//
// Every hook returns exactly what the real NCCL returned and adds no NCCL
// calls of its own on the job's communicators (it only asks a communicator
// for its rank and size when it first meets one it did not see created).
//
//===----------------------------------------------------------------------===//
#include "DriverApi.h"
#include "Intercept.h"
#include "NcclAbi.h"
#include "Runtime.h"

#include <unistd.h>

using namespace distlint::rt;

namespace {

/// What the NCCL hooks forward to (Intercept.h).
struct NcclFamily {
  static constexpr const char *Api = "NCCL";
  static constexpr const char *const Sonames[] = {"libnccl.so.2", "libnccl.so",
                                                  nullptr};
  static constexpr const char *RealPrefix = "";
  static constexpr bool MustExist = false;
  static Result missing(const char *Name) {
    reportMissingReal(Api, Name);
    return nccl::SystemError;
  }
};
using Family = NcclFamily;

bool failed(Result R) { return R != nccl::Success && R != nccl::InProgress; }

/// The communicator's state; one met for the first time is adopted.
CommState *commState(ncclComm_t Comm) {
  if (!Comm)
    return nullptr;
  if (CommState *C = findComm(Api::Nccl, uintptr_t(Comm)))
    return C;
  int Rank = -1, Size = 0;
  if (auto RealRank = REAL(ncclCommUserRank))
    RealRank(Comm, &Rank);
  if (auto RealCount = REAL(ncclCommCount))
    RealCount(Comm, &Size);
  CommState *C =
      addComm(Api::Nccl, uintptr_t(Comm), adoptedCommId(Api::Nccl), Rank, Size);
  CallSite None;
  recordCommCreate(C, OpCode::None, 0, 0, None, nccl::Success);
  return C;
}

struct NcclCall {
  OpCode Op;
  ncclComm_t Comm;
  cudaStream_t Stream;
  size_t Count;
  int DataType;
  int RedOp;
  int Peer; ///< Root or peer.
};

template <class Call>
Result recordNccl(void *HookFrame, const NcclCall &A, Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
  CommState *C = commState(A.Comm);
  OpDesc D;
  D.Op = A.Op;
  D.Comm = C;
  D.Count = A.Count;
  D.DataType = A.DataType;
  D.RedOp = A.RedOp;
  D.Peer = A.Peer;
  if (C) {
    OpCategory Cat = opInfo(A.Op).Category;
    bool PeerOk = A.Peer >= 0 && A.Peer < C->Size;
    // NCCL forbids concurrent calls on one communicator, so the count needs
    // no locked increment.
    if (Cat == OpCategory::Collective) {
      D.Seq = C->CollSeq.load(std::memory_order_relaxed) + 1;
      C->CollSeq.store(D.Seq, std::memory_order_relaxed);
    } else if (Cat == OpCategory::Send && PeerOk)
      D.Seq = C->SendSeq[A.Peer].fetch_add(1, std::memory_order_relaxed) + 1;
    else if (Cat == OpCategory::Recv && PeerOk)
      D.Seq = C->RecvSeq[A.Peer].fetch_add(1, std::memory_order_relaxed) + 1;
  }
  int Depth = ncclGroupDepth();
  D.Group = Depth > 0 ? ncclGroupOrdinal() : 0;
  OpHandle H = beginOp(*T, D, Site, /*Track=*/true);
  Result R = Real();
  ErrnoKeeper Keep;
  if (R == nccl::InProgress) {
    endOpIssued(H, R, false);
    H.Rec->State.store(uint16_t(H.Rec->State.load() | StateUntracked),
                       std::memory_order_release);
  } else {
    endOpOnStream(H, R, failed(R), A.Stream, Depth > 0);
  }
  return R;
}

/// Communicator creation: watched while it blocks (peers that never come),
/// then registered with an id every member derives alike.
template <class Call>
Result recordInit(void *HookFrame, OpCode Via, ncclComm_t *Out, int NRanks,
                  uint64_t Id, int Rank, Call &&Real) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  retryDriverApi();
  CallSite Site;
  captureCallSite(HookFrame, Site);
  SyncHandle Wait = beginWait(Via, Site);
  Result R = Real();
  ErrnoKeeper Keep;
  endWait(Wait);
  if (!failed(R) && Out && *Out) {
    CommState *C = addComm(Api::Nccl, uintptr_t(*Out), Id, Rank, NRanks);
    recordCommCreate(C, Via, 0, 0, Site, R);
    if (globalRank() < 0)
      setGlobalRank(Rank, NRanks);
  }
  return R;
}

void abortNccl(CommState *C) {
  if (auto Real = REAL(ncclCommAbort))
    Real(reinterpret_cast<ncclComm_t>(C->Handle.load()));
}

__attribute__((constructor)) void registerNcclAbort() {
  setAbortHandler(Api::Nccl, abortNccl);
}

} // namespace

// ---- Collectives and point-to-point -----------------------------------------
//
// Hooks whose signature is one of NCCL's common shapes are generated from
// one row each: the C name and its op-table entry (OpTable.def). The two
// with a shape of their own (ncclReduce, ncclBcast) are written out.

/// (send, recv, count, type, reduction, comm, stream)
#define NCCL_REDUCTION_HOOK(Name, Code)                                        \
  INTERCEPTOR(Result, Name, const void *Send, void *Recv, size_t Count,        \
              DataType Type, RedOp Op, ncclComm_t Comm, cudaStream_t Stream) { \
    HOOK_ENTER(Name, Send, Recv, Count, Type, Op, Comm, Stream);               \
    return recordNccl(                                                         \
        HOOK_FRAME, {OpCode::Code, Comm, Stream, Count, Type, Op, kNoPeer},    \
        [&] { return Real(Send, Recv, Count, Type, Op, Comm, Stream); });      \
  }
/// (send, recv, count, type, root, comm, stream)
#define NCCL_ROOTED_HOOK(Name, Code)                                           \
  INTERCEPTOR(Result, Name, const void *Send, void *Recv, size_t Count,        \
              DataType Type, int Root, ncclComm_t Comm, cudaStream_t Stream) { \
    HOOK_ENTER(Name, Send, Recv, Count, Type, Root, Comm, Stream);             \
    return recordNccl(                                                         \
        HOOK_FRAME, {OpCode::Code, Comm, Stream, Count, Type, -1, Root},       \
        [&] { return Real(Send, Recv, Count, Type, Root, Comm, Stream); });    \
  }
/// (send, recv, count, type, comm, stream)
#define NCCL_EXCHANGE_HOOK(Name, Code)                                         \
  INTERCEPTOR(Result, Name, const void *Send, void *Recv, size_t Count,        \
              DataType Type, ncclComm_t Comm, cudaStream_t Stream) {           \
    HOOK_ENTER(Name, Send, Recv, Count, Type, Comm, Stream);                   \
    return recordNccl(                                                         \
        HOOK_FRAME, {OpCode::Code, Comm, Stream, Count, Type, -1, kNoPeer},    \
        [&] { return Real(Send, Recv, Count, Type, Comm, Stream); });          \
  }
/// (buffer, count, type, peer, comm, stream); Buffer: the buffer's type.
#define NCCL_P2P_HOOK(Name, Code, Buffer)                                      \
  INTERCEPTOR(Result, Name, Buffer Buf, size_t Count, DataType Type, int Peer, \
              ncclComm_t Comm, cudaStream_t Stream) {                          \
    HOOK_ENTER(Name, Buf, Count, Type, Peer, Comm, Stream);                    \
    return recordNccl(                                                         \
        HOOK_FRAME, {OpCode::Code, Comm, Stream, Count, Type, -1, Peer},       \
        [&] { return Real(Buf, Count, Type, Peer, Comm, Stream); });           \
  }

NCCL_REDUCTION_HOOK(ncclAllReduce, NcclAllReduce)
NCCL_REDUCTION_HOOK(ncclReduceScatter, NcclReduceScatter)
NCCL_ROOTED_HOOK(ncclBroadcast, NcclBroadcast)
NCCL_ROOTED_HOOK(ncclGather, NcclGather)
NCCL_ROOTED_HOOK(ncclScatter, NcclScatter)
NCCL_EXCHANGE_HOOK(ncclAllGather, NcclAllGather)
NCCL_EXCHANGE_HOOK(ncclAlltoAll, NcclAlltoAll)
NCCL_P2P_HOOK(ncclSend, NcclSend, const void *)
NCCL_P2P_HOOK(ncclRecv, NcclRecv, void *)

INTERCEPTOR(Result, ncclBcast, void *Buff, size_t Count, DataType Type,
            int Root, ncclComm_t Comm, cudaStream_t Stream) {
  HOOK_ENTER(ncclBcast, Buff, Count, Type, Root, Comm, Stream);
  return recordNccl(
      HOOK_FRAME, {OpCode::NcclBcast, Comm, Stream, Count, Type, -1, Root},
      [&] { return Real(Buff, Count, Type, Root, Comm, Stream); });
}

INTERCEPTOR(Result, ncclReduce, const void *Send, void *Recv, size_t Count,
            DataType Type, RedOp Op, int Root, ncclComm_t Comm,
            cudaStream_t Stream) {
  HOOK_ENTER(ncclReduce, Send, Recv, Count, Type, Op, Root, Comm, Stream);
  return recordNccl(
      HOOK_FRAME, {OpCode::NcclReduce, Comm, Stream, Count, Type, Op, Root},
      [&] { return Real(Send, Recv, Count, Type, Op, Root, Comm, Stream); });
}

// ---- Groups -----------------------------------------------------------------

INTERCEPTOR(Result, ncclGroupStart, void) {
  HOOK_ENTER(ncclGroupStart);
  HookScope Guard;
  int &Depth = ncclGroupDepth();
  if (Depth++ == 0)
    ++ncclGroupOrdinal();
  Result R = Real();
  ErrnoKeeper Keep;
  if (failed(R))
    --Depth;
  return R;
}

INTERCEPTOR(Result, ncclGroupEnd, void) {
  HOOK_ENTER(ncclGroupEnd);
  int &Depth = ncclGroupDepth();
  TraceWriter *T = Depth == 1 ? trace() : nullptr;
  HookScope Guard;
  SyncHandle Wait;
  if (T) {
    CallSite Site;
    captureCallSite(HOOK_FRAME, Site);
    Wait = beginWait(OpCode::NcclGroupEnd, Site);
  }
  Result R = Real();
  ErrnoKeeper Keep;
  endWait(Wait);
  if (Depth > 0 && --Depth == 0)
    ncclGroupEnded(failed(R) ? R : nccl::Success);
  return R;
}

// ---- Communicators ----------------------------------------------------------

INTERCEPTOR(Result, ncclCommInitRank, ncclComm_t *Comm, int NRanks,
            ncclUniqueId Id, int Rank) {
  HOOK_ENTER(ncclCommInitRank, Comm, NRanks, Id, Rank);
  return recordInit(HOOK_FRAME, OpCode::NcclCommInitRank, Comm, NRanks,
                    hashBytes(&Id, sizeof(Id)), Rank,
                    [&] { return Real(Comm, NRanks, Id, Rank); });
}

INTERCEPTOR(Result, ncclCommInitRankConfig, ncclComm_t *Comm, int NRanks,
            ncclUniqueId Id, int Rank, ncclConfig_t *Config) {
  HOOK_ENTER(ncclCommInitRankConfig, Comm, NRanks, Id, Rank, Config);
  return recordInit(HOOK_FRAME, OpCode::NcclCommInitRankConfig, Comm, NRanks,
                    hashBytes(&Id, sizeof(Id)), Rank,
                    [&] { return Real(Comm, NRanks, Id, Rank, Config); });
}

INTERCEPTOR(Result, ncclCommInitRankScalable, ncclComm_t *Comm, int NRanks,
            int Rank, int NIds, ncclUniqueId *Ids, ncclConfig_t *Config) {
  HOOK_ENTER(ncclCommInitRankScalable, Comm, NRanks, Rank, NIds, Ids, Config);
  if (NIds < 1 || !Ids)
    return Real(Comm, NRanks, Rank, NIds, Ids, Config);
  return recordInit(HOOK_FRAME, OpCode::NcclCommInitRankScalable, Comm, NRanks,
                    hashBytes(Ids, sizeof(ncclUniqueId)), Rank, [&] {
                      return Real(Comm, NRanks, Rank, NIds, Ids, Config);
                    });
}

INTERCEPTOR(Result, ncclCommInitAll, ncclComm_t *Comms, int NDev,
            const int *DevList) {
  HOOK_ENTER(ncclCommInitAll, Comms, NDev, DevList);
  TraceWriter *T = trace();
  if (!T)
    return Real(Comms, NDev, DevList);
  HookScope Guard;
  retryDriverApi();
  CallSite Site;
  captureCallSite(HOOK_FRAME, Site);
  SyncHandle Wait = beginWait(OpCode::NcclCommInitAll, Site);
  Result R = Real(Comms, NDev, DevList);
  ErrnoKeeper Keep;
  endWait(Wait);
  if (!failed(R)) {
    // All members live in this process: an id private to it is enough.
    static std::atomic<uint64_t> Calls{0};
    uint64_t Base =
        hashMix(hashMix(0x696e6974616c6cull, uint64_t(getpid())), ++Calls);
    for (int I = 0; I < NDev; ++I)
      if (Comms[I]) {
        CommState *C = addComm(Api::Nccl, uintptr_t(Comms[I]),
                               hashMix(Base, uint64_t(I)), I, NDev);
        recordCommCreate(C, OpCode::NcclCommInitAll, 0, 0, Site, R);
      }
  }
  return R;
}

namespace {
/// Split and shrink: a collective over the parent, then a new communicator
/// whose id derives from the parent's and the call's ordinal on it.
template <class Call>
Result recordDerive(void *HookFrame, OpCode Via, ncclComm_t Parent, int Color,
                    ncclComm_t *NewComm, bool InParentSequence, Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
  CommState *P = commState(Parent);
  uint64_t Ordinal = P ? P->Children.fetch_add(1) + 1 : 0;
  OpDesc D;
  D.Op = Via;
  D.Comm = P;
  D.Tag = Color;
  if (P && InParentSequence)
    D.Seq = P->CollSeq.fetch_add(1) + 1;
  OpHandle H = beginOp(*T, D, Site, /*Track=*/true);
  Result R = Real();
  ErrnoKeeper Keep;
  endOpBlocking(H, R, failed(R));
  if (!failed(R) && NewComm && *NewComm) {
    int Rank = -1, Size = 0;
    if (auto RealRank = REAL(ncclCommUserRank))
      RealRank(*NewComm, &Rank);
    if (auto RealCount = REAL(ncclCommCount))
      RealCount(*NewComm, &Size);
    uint64_t ParentId = P ? P->Id : 0;
    uint64_t Id =
        hashMix(hashMix(ParentId, Ordinal), uint64_t(uint32_t(Color)));
    CommState *C = addComm(Api::Nccl, uintptr_t(*NewComm), Id, Rank, Size);
    recordCommCreate(C, Via, ParentId, Color, Site, R);
  }
  return R;
}
} // namespace

INTERCEPTOR(Result, ncclCommSplit, ncclComm_t Comm, int Color, int Key,
            ncclComm_t *NewComm, ncclConfig_t *Config) {
  HOOK_ENTER(ncclCommSplit, Comm, Color, Key, NewComm, Config);
  return recordDerive(HOOK_FRAME, OpCode::NcclCommSplit, Comm, Color, NewComm,
                      /*InParentSequence=*/true,
                      [&] { return Real(Comm, Color, Key, NewComm, Config); });
}

INTERCEPTOR(Result, ncclCommShrink, ncclComm_t Comm, int *Exclude,
            int ExcludeCount, ncclComm_t *NewComm, ncclConfig_t *Config,
            int Flags) {
  HOOK_ENTER(ncclCommShrink, Comm, Exclude, ExcludeCount, NewComm, Config,
             Flags);
  // Excluded ranks do not call it: not part of the parent's sequence.
  return recordDerive(HOOK_FRAME, OpCode::NcclCommShrink, Comm, 0, NewComm,
                      /*InParentSequence=*/false, [&] {
                        return Real(Comm, Exclude, ExcludeCount, NewComm,
                                    Config, Flags);
                      });
}

namespace {
template <class Call>
Result recordCommEnd(void *HookFrame, OpCode Op, ncclComm_t Comm, bool Drop,
                     Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
  CommState *C = commState(Comm);
  OpDesc D;
  D.Op = Op;
  D.Comm = C;
  OpHandle H = beginOp(*T, D, Site, /*Track=*/true);
  Result R = Real();
  ErrnoKeeper Keep;
  endOpBlocking(H, R, failed(R));
  if (Drop && !failed(R))
    dropComm(C);
  return R;
}
} // namespace

INTERCEPTOR(Result, ncclCommFinalize, ncclComm_t Comm) {
  HOOK_ENTER(ncclCommFinalize, Comm);
  return recordCommEnd(HOOK_FRAME, OpCode::NcclCommFinalize, Comm, false,
                       [&] { return Real(Comm); });
}

INTERCEPTOR(Result, ncclCommDestroy, ncclComm_t Comm) {
  HOOK_ENTER(ncclCommDestroy, Comm);
  return recordCommEnd(HOOK_FRAME, OpCode::NcclCommDestroy, Comm, true,
                       [&] { return Real(Comm); });
}

INTERCEPTOR(Result, ncclCommAbort, ncclComm_t Comm) {
  HOOK_ENTER(ncclCommAbort, Comm);
  return recordCommEnd(HOOK_FRAME, OpCode::NcclCommAbort, Comm, true,
                       [&] { return Real(Comm); });
}

INTERCEPTOR(Result, ncclCommGetAsyncError, ncclComm_t Comm,
            Result *AsyncError) {
  HOOK_ENTER(ncclCommGetAsyncError, Comm, AsyncError);
  Result R = Real(Comm, AsyncError);
  if (R == nccl::Success && AsyncError && *AsyncError != nccl::Success &&
      *AsyncError != nccl::InProgress) {
    HookScope Guard;
    recordAsyncError(findComm(Api::Nccl, uintptr_t(Comm)), *AsyncError);
  }
  return R;
}
