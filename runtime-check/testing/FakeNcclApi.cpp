//===- FakeNcclApi.cpp - The NCCL stand-in's C ABI ------------------------===//
//
// The pnccl* entry points (and their weak ncclX aliases, as in NCCL) over
// the stand-in's transport (FakeNccl.h). Unsupported ones return
// ncclInvalidUsage.
//
//===----------------------------------------------------------------------===//
#include "FakeNccl.h"

#include <algorithm>
#include <cstring>
#include <random>

using namespace fakenccl;

#define NCCL_WEAK_ALIAS(Name)                                                  \
  extern "C" decltype(p##Name) Name __attribute__((weak, alias("p" #Name)));

extern "C" {

ncclResult_t pncclGetVersion(int *Version) {
  *Version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

ncclResult_t pncclGetUniqueId(ncclUniqueId *Id) {
  std::memset(Id, 0, sizeof(*Id));
  std::random_device Rd;
  uint64_t Bits = (uint64_t(Rd()) << 32) ^ Rd();
  std::snprintf(Id->internal, sizeof(Id->internal), "dlfake-%d-%016llx",
                int(getpid()), (unsigned long long)Bits);
  return ncclSuccess;
}

ncclResult_t pncclCommInitRank(ncclComm_t *Comm, int NRanks, ncclUniqueId Id,
                               int Rank) {
  if (!Comm || Id.internal[0] == 0)
    return ncclInvalidArgument;
  return joinComm(idName(Id), NRanks, Rank, Comm);
}

ncclResult_t pncclCommInitRankConfig(ncclComm_t *Comm, int NRanks,
                                     ncclUniqueId Id, int Rank,
                                     ncclConfig_t *) {
  // Non-blocking configs are served blockingly; that is a legal NCCL outcome.
  return pncclCommInitRank(Comm, NRanks, Id, Rank);
}

ncclResult_t pncclCommInitRankScalable(ncclComm_t *Comm, int NRanks, int Rank,
                                       int NIds, ncclUniqueId *Ids,
                                       ncclConfig_t *) {
  if (NIds < 1 || !Ids)
    return ncclInvalidArgument;
  return pncclCommInitRank(Comm, NRanks, Ids[0], Rank);
}

ncclResult_t pncclCommInitAll(ncclComm_t *Comms, int NDev, const int *) {
  ncclUniqueId Id;
  pncclGetUniqueId(&Id);
  std::vector<std::thread> Threads;
  std::vector<ncclResult_t> Results(NDev, ncclSuccess);
  for (int D = 0; D < NDev; ++D)
    Threads.emplace_back(
        [&, D] { Results[D] = joinComm(idName(Id), NDev, D, &Comms[D]); });
  for (auto &T : Threads)
    T.join();
  for (ncclResult_t R : Results)
    if (R != ncclSuccess)
      return R;
  return ncclSuccess;
}

ncclResult_t pncclCommSplit(ncclComm_t Parent, int Color, int Key,
                            ncclComm_t *NewComm, ncclConfig_t *) {
  if (!validComm(Parent) || !NewComm)
    return ncclInvalidArgument;
  ncclComm *P = Parent;
  const uint64_t Seq = ++P->SplitCount;
  RankSlot &Mine = P->slot(P->Rank);
  Mine.SplitColor = Color;
  Mine.SplitKey = Key;
  Mine.SplitPosted.store(Seq, std::memory_order_release);
  if (!waitFor(P, [&] {
        for (int R = 0; R < P->NRanks; ++R)
          if (P->slot(R).SplitPosted.load(std::memory_order_acquire) < Seq)
            return false;
        return true;
      }))
    return ncclSystemError;
  std::vector<std::pair<int, int>> Members; // (key, parent rank)
  for (int R = 0; R < P->NRanks; ++R)
    if (P->slot(R).SplitColor == Color)
      Members.emplace_back(P->slot(R).SplitKey, R);
  Mine.SplitDone.store(Seq, std::memory_order_release);
  waitFor(P, [&] {
    for (int R = 0; R < P->NRanks; ++R)
      if (P->slot(R).SplitDone.load(std::memory_order_acquire) < Seq)
        return false;
    return true;
  });
  if (Color == NCCL_SPLIT_NOCOLOR) {
    *NewComm = nullptr;
    return ncclSuccess;
  }
  std::sort(Members.begin(), Members.end());
  int NewRank = 0;
  for (size_t I = 0; I < Members.size(); ++I)
    if (Members[I].second == P->Rank)
      NewRank = int(I);
  std::string Name =
      P->Name + "-s" + std::to_string(Seq) + "-c" + std::to_string(Color);
  return joinComm(Name, int(Members.size()), NewRank, NewComm);
}

ncclResult_t pncclCommFinalize(ncclComm_t Comm) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  fakecuda::synchronizeDevice();
  return ncclSuccess;
}

ncclResult_t pncclCommDestroy(ncclComm_t Comm) {
  // Operations may still be queued; the stand-in keeps the mapping alive.
  return validComm(Comm) ? ncclSuccess : ncclInvalidArgument;
}

ncclResult_t pncclCommAbort(ncclComm_t Comm) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  Comm->Aborted.store(1, std::memory_order_release);
  Comm->AsyncError.store(ncclSystemError);
  return ncclSuccess;
}

ncclResult_t pncclCommGetAsyncError(ncclComm_t Comm, ncclResult_t *Error) {
  if (!validComm(Comm) || !Error)
    return ncclInvalidArgument;
  *Error = ncclResult_t(Comm->AsyncError.load());
  return ncclSuccess;
}

ncclResult_t pncclCommCount(const ncclComm_t Comm, int *Count) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  *Count = Comm->NRanks;
  return ncclSuccess;
}

ncclResult_t pncclCommCuDevice(const ncclComm_t Comm, int *Device) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  *Device = Comm->Device;
  return ncclSuccess;
}

ncclResult_t pncclCommUserRank(const ncclComm_t Comm, int *Rank) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  *Rank = Comm->Rank;
  return ncclSuccess;
}

const char *pncclGetErrorString(ncclResult_t Result) {
  switch (Result) {
  case ncclSuccess:
    return "no error";
  case ncclUnhandledCudaError:
    return "unhandled cuda error";
  case ncclSystemError:
    return "unhandled system error";
  case ncclInternalError:
    return "internal error";
  case ncclInvalidArgument:
    return "invalid argument";
  case ncclInvalidUsage:
    return "invalid usage";
  case ncclRemoteError:
    return "remote process exited or there was a network error";
  case ncclInProgress:
    return "NCCL operation in progress";
  default:
    return "unknown result code";
  }
}

const char *pncclGetLastError(ncclComm_t) { return ""; }

ncclResult_t pncclMemAlloc(void **Ptr, size_t Size) {
  *Ptr = std::calloc(1, Size ? Size : 1);
  return *Ptr ? ncclSuccess : ncclSystemError;
}

ncclResult_t pncclMemFree(void *Ptr) {
  std::free(Ptr);
  return ncclSuccess;
}

ncclResult_t pncclCommRegister(const ncclComm_t, void *, size_t,
                               void **Handle) {
  *Handle = nullptr;
  return ncclSuccess;
}

ncclResult_t pncclCommDeregister(const ncclComm_t, void *) {
  return ncclSuccess;
}

ncclResult_t pncclCommWindowRegister(ncclComm_t, void *, size_t, ncclWindow_t *,
                                     int) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommWindowDeregister(ncclComm_t, ncclWindow_t) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommShrink(ncclComm_t, int *, int, ncclComm_t *,
                             ncclConfig_t *, int) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommRevoke(ncclComm_t, int) { return ncclInvalidUsage; }

ncclResult_t pncclRedOpCreatePreMulSum(ncclRedOp_t *, void *, ncclDataType_t,
                                       ncclScalarResidence_t, ncclComm_t) {
  return ncclInvalidUsage;
}

ncclResult_t pncclRedOpDestroy(ncclRedOp_t, ncclComm_t) {
  return ncclInvalidUsage;
}

ncclResult_t pncclReduce(const void *Send, void *Recv, size_t Count,
                         ncclDataType_t Type, ncclRedOp_t Op, int Root,
                         ncclComm_t Comm, cudaStream_t Stream) {
  return collective(CollKind::Reduce, Send, Recv, Count, Type, Op, Root, Comm,
                    Stream);
}

ncclResult_t pncclBroadcast(const void *Send, void *Recv, size_t Count,
                            ncclDataType_t Type, int Root, ncclComm_t Comm,
                            cudaStream_t Stream) {
  return collective(CollKind::Broadcast, Send, Recv, Count, Type, ncclSum, Root,
                    Comm, Stream);
}

ncclResult_t pncclBcast(void *Buff, size_t Count, ncclDataType_t Type, int Root,
                        ncclComm_t Comm, cudaStream_t Stream) {
  return collective(CollKind::Broadcast, Buff, Buff, Count, Type, ncclSum, Root,
                    Comm, Stream);
}

ncclResult_t pncclAllReduce(const void *Send, void *Recv, size_t Count,
                            ncclDataType_t Type, ncclRedOp_t Op,
                            ncclComm_t Comm, cudaStream_t Stream) {
  return collective(CollKind::AllReduce, Send, Recv, Count, Type, Op, 0, Comm,
                    Stream);
}

ncclResult_t pncclReduceScatter(const void *Send, void *Recv, size_t RecvCount,
                                ncclDataType_t Type, ncclRedOp_t Op,
                                ncclComm_t Comm, cudaStream_t Stream) {
  return collective(CollKind::ReduceScatter, Send, Recv, RecvCount, Type, Op, 0,
                    Comm, Stream);
}

ncclResult_t pncclAllGather(const void *Send, void *Recv, size_t SendCount,
                            ncclDataType_t Type, ncclComm_t Comm,
                            cudaStream_t Stream) {
  return collective(CollKind::AllGather, Send, Recv, SendCount, Type, ncclSum,
                    0, Comm, Stream);
}

ncclResult_t pncclAlltoAll(const void *Send, void *Recv, size_t Count,
                           ncclDataType_t Type, ncclComm_t Comm,
                           cudaStream_t Stream) {
  return collective(CollKind::AlltoAll, Send, Recv, Count, Type, ncclSum, 0,
                    Comm, Stream);
}

ncclResult_t pncclGather(const void *Send, void *Recv, size_t Count,
                         ncclDataType_t Type, int Root, ncclComm_t Comm,
                         cudaStream_t Stream) {
  return collective(CollKind::Gather, Send, Recv, Count, Type, ncclSum, Root,
                    Comm, Stream);
}

ncclResult_t pncclScatter(const void *Send, void *Recv, size_t Count,
                          ncclDataType_t Type, int Root, ncclComm_t Comm,
                          cudaStream_t Stream) {
  return collective(CollKind::Scatter, Send, Recv, Count, Type, ncclSum, Root,
                    Comm, Stream);
}

ncclResult_t pncclSend(const void *Send, size_t Count, ncclDataType_t Type,
                       int Peer, ncclComm_t Comm, cudaStream_t Stream) {
  return pointToPoint(true, Send, nullptr, Count, Type, Peer, Comm, Stream);
}

ncclResult_t pncclRecv(void *Recv, size_t Count, ncclDataType_t Type, int Peer,
                       ncclComm_t Comm, cudaStream_t Stream) {
  return pointToPoint(false, nullptr, Recv, Count, Type, Peer, Comm, Stream);
}

ncclResult_t pncclGroupStart() {
  ++GroupDepth;
  return ncclSuccess;
}

ncclResult_t pncclGroupEnd() {
  if (GroupDepth == 0)
    return ncclInvalidUsage;
  if (--GroupDepth == 0) {
    std::vector<Task> Tasks;
    Tasks.swap(GroupTasks);
    if (!Tasks.empty())
      launch(std::move(Tasks));
  }
  return ncclSuccess;
}

ncclResult_t pncclGroupSimulateEnd(ncclSimInfo_t *) { return ncclInvalidUsage; }

} // extern "C"

NCCL_WEAK_ALIAS(ncclGetVersion)
NCCL_WEAK_ALIAS(ncclGetUniqueId)
NCCL_WEAK_ALIAS(ncclCommInitRank)
NCCL_WEAK_ALIAS(ncclCommInitRankConfig)
NCCL_WEAK_ALIAS(ncclCommInitRankScalable)
NCCL_WEAK_ALIAS(ncclCommInitAll)
NCCL_WEAK_ALIAS(ncclCommSplit)
NCCL_WEAK_ALIAS(ncclCommFinalize)
NCCL_WEAK_ALIAS(ncclCommDestroy)
NCCL_WEAK_ALIAS(ncclCommAbort)
NCCL_WEAK_ALIAS(ncclCommGetAsyncError)
NCCL_WEAK_ALIAS(ncclCommCount)
NCCL_WEAK_ALIAS(ncclCommCuDevice)
NCCL_WEAK_ALIAS(ncclCommUserRank)
NCCL_WEAK_ALIAS(ncclGetErrorString)
NCCL_WEAK_ALIAS(ncclGetLastError)
NCCL_WEAK_ALIAS(ncclMemAlloc)
NCCL_WEAK_ALIAS(ncclMemFree)
NCCL_WEAK_ALIAS(ncclCommRegister)
NCCL_WEAK_ALIAS(ncclCommDeregister)
NCCL_WEAK_ALIAS(ncclCommWindowRegister)
NCCL_WEAK_ALIAS(ncclCommWindowDeregister)
NCCL_WEAK_ALIAS(ncclCommShrink)
NCCL_WEAK_ALIAS(ncclCommRevoke)
NCCL_WEAK_ALIAS(ncclRedOpCreatePreMulSum)
NCCL_WEAK_ALIAS(ncclRedOpDestroy)
NCCL_WEAK_ALIAS(ncclReduce)
NCCL_WEAK_ALIAS(ncclBroadcast)
NCCL_WEAK_ALIAS(ncclBcast)
NCCL_WEAK_ALIAS(ncclAllReduce)
NCCL_WEAK_ALIAS(ncclReduceScatter)
NCCL_WEAK_ALIAS(ncclAllGather)
NCCL_WEAK_ALIAS(ncclAlltoAll)
NCCL_WEAK_ALIAS(ncclGather)
NCCL_WEAK_ALIAS(ncclScatter)
NCCL_WEAK_ALIAS(ncclSend)
NCCL_WEAK_ALIAS(ncclRecv)
NCCL_WEAK_ALIAS(ncclGroupStart)
NCCL_WEAK_ALIAS(ncclGroupEnd)
NCCL_WEAK_ALIAS(ncclGroupSimulateEnd)
