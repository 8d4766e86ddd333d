//===- FakeNccl.cpp - Test-only libnccl.so.2 stand-in
//-----------------------===//
//
// Implements the NCCL 2.28 ABI from <nccl.h> for processes on one machine:
// ranks rendezvous through a POSIX shared-memory segment named by the
// ncclUniqueId, and collectives compute real results on host buffers ("device"
// pointers are host memory, see FakeCudart.cpp). Operations run on the
// stand-in streams, so the host returns from ncclAllReduce at once and waits
// later, when it synchronizes - as with real NCCL.
//
// Like NCCL, a rank whose peers never arrive, or arrive with a different
// operation, count, type or root, waits forever (until ncclCommAbort).
//
// Element types and reductions: FakeReduce.cpp; the C ABI: FakeNcclApi.cpp.
//
// Limits (test-only): 64 ranks, 4 MiB staged per rank and operation, 256 KiB
// per point-to-point message; unsupported entry points return
// ncclInvalidUsage.
//
//===----------------------------------------------------------------------===//
#include "FakeNccl.h"

#include <nccl.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace fakenccl {

/// Bytes this rank contributes to the shared staging area.
size_t stagedBytes(const CollArgs &A, int Rank, int N) {
  size_t Elt = typeSize(A.Type);
  switch (A.Kind) {
  case CollKind::AllReduce:
  case CollKind::AllGather:
  case CollKind::Reduce:
  case CollKind::Gather:
    return A.Count * Elt;
  case CollKind::ReduceScatter:
  case CollKind::AlltoAll:
    return size_t(N) * A.Count * Elt;
  case CollKind::Broadcast:
    return Rank == A.Root ? A.Count * Elt : 0;
  case CollKind::Scatter:
    return Rank == A.Root ? size_t(N) * A.Count * Elt : 0;
  }
  return 0;
}

bool sameCall(const RankSlot &A, const RankSlot &B) {
  return A.Kind == B.Kind && A.DataType == B.DataType && A.RedOp == B.RedOp &&
         A.Root == B.Root && A.Count == B.Count;
}

void runCollective(ncclComm *C, const CollArgs &A) {
  if (C->Aborted.load())
    return failComm(C);
  const int N = C->NRanks, Me = C->Rank;
  const uint64_t Seq = ++C->CollSeq;
  // Reuse of the staging area waits until every rank consumed the last one.
  if (!waitFor(C, [&] {
        for (int R = 0; R < N; ++R)
          if (C->slot(R).Done.load(std::memory_order_acquire) + 1 < Seq)
            return false;
        return true;
      }))
    return failComm(C);
  RankSlot &Mine = C->slot(Me);
  if (size_t Bytes = stagedBytes(A, Me, N))
    std::memcpy(C->stage(Me), A.Send, Bytes);
  Mine.Kind = int32_t(A.Kind);
  Mine.DataType = A.Type;
  Mine.RedOp = A.Op;
  Mine.Root = A.Root;
  Mine.Count = A.Count;
  Mine.Posted.store(Seq, std::memory_order_release);
  if (!waitFor(C, [&] {
        for (int R = 0; R < N; ++R)
          if (C->slot(R).Posted.load(std::memory_order_acquire) < Seq)
            return false;
        return true;
      }))
    return failComm(C);
  for (int R = 0; R < N; ++R)
    if (!sameCall(C->slot(R), Mine)) {
      // Mismatched calls never complete, like NCCL's protocols waiting for
      // bytes that never come.
      if (debugEnabled())
        std::fprintf(stderr,
                     "fake-nccl: rank %d: op #%llu differs from rank %d's; "
                     "waiting forever\n",
                     Me, (unsigned long long)Seq, R);
      waitFor(C, [] { return false; });
      return failComm(C);
    }

  const size_t Elt = typeSize(A.Type);
  const size_t Block = A.Count * Elt;
  std::vector<const char *> Inputs;
  char *Out = static_cast<char *>(A.Recv);
  switch (A.Kind) {
  case CollKind::AllReduce:
  case CollKind::Reduce:
    if (A.Kind == CollKind::Reduce && Me != A.Root)
      break;
    for (int R = 0; R < N; ++R)
      Inputs.push_back(C->stage(R));
    reduce(Out, Inputs, A.Count, A.Type, A.Op);
    break;
  case CollKind::ReduceScatter:
    for (int R = 0; R < N; ++R)
      Inputs.push_back(C->stage(R) + size_t(Me) * Block);
    reduce(Out, Inputs, A.Count, A.Type, A.Op);
    break;
  case CollKind::Broadcast:
    std::memmove(Out, C->stage(A.Root), Block);
    break;
  case CollKind::AllGather:
    for (int R = 0; R < N; ++R)
      std::memmove(Out + size_t(R) * Block, C->stage(R), Block);
    break;
  case CollKind::AlltoAll:
    for (int R = 0; R < N; ++R)
      std::memmove(Out + size_t(R) * Block, C->stage(R) + size_t(Me) * Block, Block);
    break;
  case CollKind::Gather:
    if (Me == A.Root)
      for (int R = 0; R < N; ++R)
        std::memmove(Out + size_t(R) * Block, C->stage(R), Block);
    break;
  case CollKind::Scatter:
    std::memmove(Out, C->stage(A.Root) + size_t(Me) * Block, Block);
    break;
  }
  Mine.Done.store(Seq, std::memory_order_release);
}

void copyIntoRing(char *Ring, uint64_t Pos, const void *Src, size_t Bytes) {
  size_t At = Pos % kChannelBytes;
  size_t First = std::min(Bytes, kChannelBytes - At);
  std::memcpy(Ring + At, Src, First);
  std::memcpy(Ring, static_cast<const char *>(Src) + First, Bytes - First);
}

void copyFromRing(const char *Ring, uint64_t Pos, void *Dst, size_t Bytes) {
  size_t At = Pos % kChannelBytes;
  size_t First = std::min(Bytes, kChannelBytes - At);
  std::memcpy(Dst, Ring + At, First);
  std::memcpy(static_cast<char *>(Dst) + First, Ring, Bytes - First);
}

size_t messageBytes(size_t Payload) {
  return kMessageHeader + ((Payload + 15) & ~size_t(15));
}

void runP2P(ncclComm *C, const P2PArgs &A) {
  if (C->Aborted.load())
    return failComm(C);
  const size_t Payload = A.Count * typeSize(A.Type);
  const size_t Need = messageBytes(Payload);
  uint64_t Header[2] = {A.Count, uint64_t(A.Type)};
  if (A.IsSend) {
    ChannelHead &Ch = C->channel(C->Rank, A.Peer);
    char *Ring = C->channelData(C->Rank, A.Peer);
    uint64_t W = Ch.Written.load(std::memory_order_relaxed);
    if (!waitFor(C, [&] {
          return W + Need - Ch.Consumed.load(std::memory_order_acquire) <=
                 kChannelBytes;
        }))
      return failComm(C);
    copyIntoRing(Ring, W, Header, sizeof(Header));
    copyIntoRing(Ring, W + kMessageHeader, A.Send, Payload);
    Ch.Written.store(W + Need, std::memory_order_release);
    return;
  }
  ChannelHead &Ch = C->channel(A.Peer, C->Rank);
  const char *Ring = C->channelData(A.Peer, C->Rank);
  uint64_t R = Ch.Consumed.load(std::memory_order_relaxed);
  if (!waitFor(C, [&] {
        return Ch.Written.load(std::memory_order_acquire) >= R + kMessageHeader;
      }))
    return failComm(C);
  uint64_t Got[2];
  copyFromRing(Ring, R, Got, sizeof(Got));
  if (Got[0] != A.Count || Got[1] != uint64_t(A.Type)) {
    if (debugEnabled())
      std::fprintf(stderr, "fake-nccl: rank %d: recv from %d expects %zu elements, "
                           "peer sent %llu; waiting forever\n",
                   C->Rank, A.Peer, A.Count, (unsigned long long)Got[0]);
    waitFor(C, [] { return false; });
    return failComm(C);
  }
  copyFromRing(Ring, R + kMessageHeader, A.Recv, Payload);
  Ch.Consumed.store(R + Need, std::memory_order_release);
}

thread_local int GroupDepth = 0;
thread_local std::vector<Task> GroupTasks;

/// Runs a batch in the order NCCL's group semantics make deadlock-free for
/// the stand-in: sends, then receives, then collectives in call order.
void runBatch(const std::vector<Task> &Batch) {
  for (const Task &T : Batch)
    if (T.IsP2P && T.P2P.IsSend)
      runP2P(T.Comm, T.P2P);
  for (const Task &T : Batch)
    if (T.IsP2P && !T.P2P.IsSend)
      runP2P(T.Comm, T.P2P);
  for (const Task &T : Batch)
    if (!T.IsP2P)
      runCollective(T.Comm, T.Coll);
}

void launch(std::vector<Task> Tasks) {
  // One work item per stream, in order of first use.
  std::vector<cudaStream_t> Streams;
  for (const Task &T : Tasks)
    if (std::find(Streams.begin(), Streams.end(), T.Stream) == Streams.end())
      Streams.push_back(T.Stream);
  for (cudaStream_t S : Streams) {
    std::vector<Task> Batch;
    for (const Task &T : Tasks)
      if (T.Stream == S)
        Batch.push_back(T);
    fakecuda::enqueue(S, [Batch] { runBatch(Batch); });
  }
}

ncclResult_t submit(const Task &T) {
  fakecuda::makePrimaryContextCurrent();
  if (GroupDepth > 0) {
    GroupTasks.push_back(T);
    return ncclSuccess;
  }
  launch({T});
  return ncclSuccess;
}

bool validComm(ncclComm *C) { return C != nullptr && C->Seg != nullptr; }

ncclResult_t collective(CollKind Kind, const void *Send, void *Recv, size_t Count,
                        ncclDataType_t Type, ncclRedOp_t Op, int Root,
                        ncclComm_t Comm, cudaStream_t Stream) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  if (Comm->Aborted.load())
    return ncclInvalidUsage;
  if (typeSize(Type) == 0 || Root < 0 || Root >= Comm->NRanks)
    return ncclInvalidArgument;
  bool Reduces = Kind == CollKind::AllReduce || Kind == CollKind::Reduce ||
                 Kind == CollKind::ReduceScatter;
  if (Reduces && (int(Op) < 0 || int(Op) >= int(ncclNumOps) ||
                  Type == ncclFloat8e4m3 || Type == ncclFloat8e5m2))
    return ncclInvalidArgument;
  CollArgs A{Kind, Send, Recv, Count, Type, Op, Root};
  // The largest contribution any rank makes is the root's or an n-block one.
  size_t Biggest = std::max(stagedBytes(A, Root, Comm->NRanks),
                            stagedBytes(A, (Root + 1) % Comm->NRanks, Comm->NRanks));
  if (Biggest > kStageBytes) {
    std::fprintf(stderr, "fake-nccl: %zu bytes per rank exceed the stand-in's "
                         "4 MiB limit\n", Biggest);
    return ncclInvalidArgument;
  }
  Task T{};
  T.Comm = Comm;
  T.Stream = Stream;
  T.IsP2P = false;
  T.Coll = A;
  return submit(T);
}

ncclResult_t pointToPoint(bool IsSend, const void *Send, void *Recv, size_t Count,
                          ncclDataType_t Type, int Peer, ncclComm_t Comm,
                          cudaStream_t Stream) {
  if (!validComm(Comm))
    return ncclInvalidArgument;
  if (Comm->Aborted.load())
    return ncclInvalidUsage;
  if (typeSize(Type) == 0 || Peer < 0 || Peer >= Comm->NRanks)
    return ncclInvalidArgument;
  if (messageBytes(Count * typeSize(Type)) > kChannelBytes) {
    std::fprintf(stderr, "fake-nccl: a %zu-byte message exceeds the stand-in's "
                         "256 KiB limit\n", Count * typeSize(Type));
    return ncclInvalidArgument;
  }
  Task T{};
  T.Comm = Comm;
  T.Stream = Stream;
  T.IsP2P = true;
  T.P2P = P2PArgs{IsSend, Send, Recv, Count, Type, Peer};
  return submit(T);
}

/// Joins the segment called Name as Rank of N; blocks until all N joined.
ncclResult_t joinComm(const std::string &Name, int N, int Rank, ncclComm **Out) {
  if (N < 1 || N > kMaxRanks || Rank < 0 || Rank >= N)
    return ncclInvalidArgument;
  std::string ShmName = "/" + Name;
  int Fd = shm_open(ShmName.c_str(), O_CREAT | O_RDWR, 0600);
  if (Fd < 0) {
    std::perror("fake-nccl: shm_open");
    return ncclSystemError;
  }
  size_t Bytes = segmentBytes(N);
  if (ftruncate(Fd, off_t(Bytes)) != 0) {
    std::perror("fake-nccl: ftruncate");
    close(Fd);
    return ncclSystemError;
  }
  void *Map = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED) {
    std::perror("fake-nccl: mmap");
    return ncclSystemError;
  }
  auto *Comm = new ncclComm();
  Comm->Name = Name;
  Comm->Base = static_cast<char *>(Map);
  Comm->Seg = reinterpret_cast<SegmentHeader *>(Map);
  Comm->NRanks = N;
  Comm->Rank = Rank;
  int32_t Expected = 0;
  if (!Comm->Seg->NRanks.compare_exchange_strong(Expected, N) && Expected != N)
    return ncclInvalidArgument; // Ranks disagree on the size.
  if (Comm->slot(Rank).Present.exchange(1) != 0)
    return ncclInvalidUsage; // Two processes claim the same rank.
  Comm->Seg->Joined.fetch_add(1);
  waitFor(nullptr, [&] { return Comm->Seg->Joined.load() >= N; });
  shm_unlink(ShmName.c_str()); // Everybody mapped it; nothing to leak now.
  fakecuda::makePrimaryContextCurrent();
  *Out = Comm;
  return ncclSuccess;
}

std::string idName(const ncclUniqueId &Id) {
  return std::string(Id.internal, strnlen(Id.internal, NCCL_UNIQUE_ID_BYTES));
}

} // namespace fakenccl
