//===- FakeNccl.h - The NCCL stand-in's segment and transport ---*- C++ -*-===//
//
// Shared by the stand-in's transport (FakeNccl.cpp: the shared-memory
// segment, collectives and point-to-point run on the stand-in streams) and
// its C ABI (FakeNcclApi.cpp). Test-only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "FakeCuda.h"
#include "FakeReduce.h"

#include <nccl.h>

#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace fakenccl {

constexpr int kMaxRanks = 64;
constexpr size_t kStageBytes = size_t(4) << 20;
constexpr size_t kChannelBytes = size_t(256) << 10;
constexpr size_t kMessageHeader = 16;

enum class CollKind : int32_t {
  AllReduce = 1,
  Broadcast,
  Reduce,
  AllGather,
  ReduceScatter,
  AlltoAll,
  Gather,
  Scatter
};

struct alignas(64) RankSlot {
  std::atomic<uint64_t> Posted;
  std::atomic<uint64_t> Done;
  std::atomic<uint32_t> Present;
  int32_t Kind;
  int32_t DataType;
  int32_t RedOp;
  int32_t Root;
  uint64_t Count;
  std::atomic<uint64_t> SplitPosted;
  std::atomic<uint64_t> SplitDone;
  int32_t SplitColor;
  int32_t SplitKey;
};

struct alignas(64) ChannelHead {
  std::atomic<uint64_t> Written;
  std::atomic<uint64_t> Consumed;
};

/// The shared segment starts zeroed, which is its initial state.
struct SegmentHeader {
  std::atomic<int32_t> NRanks;
  std::atomic<int32_t> Joined;
  RankSlot Slots[kMaxRanks];
};

inline size_t stageOffset() {
  return (sizeof(SegmentHeader) + 4095) & ~size_t(4095);
}
inline size_t channelHeadOffset(int N) {
  return stageOffset() + size_t(N) * fakenccl::kStageBytes;
}
inline size_t channelDataOffset(int N) {
  return (channelHeadOffset(N) + sizeof(ChannelHead) * N * N + 4095) &
         ~size_t(4095);
}
inline size_t segmentBytes(int N) {
  return channelDataOffset(N) + size_t(N) * N * fakenccl::kChannelBytes;
}

inline bool debugEnabled() {
  static bool On = std::getenv("DISTLINT_FAKE_NCCL_DEBUG") != nullptr;
  return On;
}

} // namespace fakenccl

struct ncclComm {
  using SegmentHeader = fakenccl::SegmentHeader;
  using RankSlot = fakenccl::RankSlot;
  using ChannelHead = fakenccl::ChannelHead;
  std::string Name;
  SegmentHeader *Seg = nullptr;
  char *Base = nullptr;
  int NRanks = 0;
  int Rank = 0;
  int Device = 0;
  uint64_t CollSeq = 0; ///< Advanced in stream order on the worker thread.
  uint64_t SplitCount = 0;
  std::atomic<int> Aborted{0};
  std::atomic<int> AsyncError{ncclSuccess};

  RankSlot &slot(int R) { return Seg->Slots[R]; }
  char *stage(int R) {
    return Base + fakenccl::stageOffset() + size_t(R) * fakenccl::kStageBytes;
  }
  ChannelHead &channel(int Src, int Dst) {
    auto *Heads = reinterpret_cast<ChannelHead *>(
        Base + fakenccl::channelHeadOffset(NRanks));
    return Heads[Src * NRanks + Dst];
  }
  char *channelData(int Src, int Dst) {
    return Base + fakenccl::channelDataOffset(NRanks) +
           size_t(Src * NRanks + Dst) * fakenccl::kChannelBytes;
  }
};

namespace fakenccl {

/// Waits like a polling NCCL proxy: spins briefly, then sleeps with backoff.
/// Returns false only when the communicator was aborted.
template <class Pred> bool waitFor(ncclComm *Comm, Pred Ready) {
  for (unsigned I = 0;; ++I) {
    if (Ready())
      return true;
    if (Comm && Comm->Aborted.load(std::memory_order_acquire))
      return false;
    if (I < 64)
      sched_yield();
    else
      usleep(I < 1000 ? 50 : 1000);
  }
}

inline void failComm(ncclComm *Comm) {
  Comm->AsyncError.store(ncclSystemError);
}

struct CollArgs {
  CollKind Kind;
  const void *Send;
  void *Recv;
  size_t Count;
  ncclDataType_t Type;
  ncclRedOp_t Op;
  int Root;
};

struct P2PArgs {
  bool IsSend;
  const void *Send;
  void *Recv;
  size_t Count;
  ncclDataType_t Type;
  int Peer;
};

struct Task {
  ncclComm *Comm;
  cudaStream_t Stream;
  bool IsP2P;
  CollArgs Coll;
  P2PArgs P2P;
};

/// The calls of this thread's open group (ncclGroupStart), run at its end.
extern thread_local int GroupDepth;
extern thread_local std::vector<Task> GroupTasks;

/// Runs Tasks on their streams (one work item per stream).
void launch(std::vector<Task> Tasks);
ncclResult_t collective(CollKind Kind, const void *Send, void *Recv,
                        size_t Count, ncclDataType_t Type, ncclRedOp_t Op,
                        int Root, ncclComm_t Comm, cudaStream_t Stream);
ncclResult_t pointToPoint(bool IsSend, const void *Send, void *Recv,
                          size_t Count, ncclDataType_t Type, int Peer,
                          ncclComm_t Comm, cudaStream_t Stream);
bool validComm(ncclComm *C);
/// Joins the segment called Name as Rank of N; blocks until all N joined.
ncclResult_t joinComm(const std::string &Name, int N, int Rank, ncclComm **Out);
std::string idName(const ncclUniqueId &Id);

} // namespace fakenccl
