//===- FakeNccl.cpp - Test-only libnccl.so.2 stand-in -----------------------===//
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
// Limits (test-only): 64 ranks, 4 MiB staged per rank and operation, 256 KiB
// per point-to-point message; unsupported entry points return
// ncclInvalidUsage.
//
//===----------------------------------------------------------------------===//
#include "FakeCuda.h"

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

namespace {

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

size_t stageOffset() { return (sizeof(SegmentHeader) + 4095) & ~size_t(4095); }
size_t channelHeadOffset(int N) { return stageOffset() + size_t(N) * kStageBytes; }
size_t channelDataOffset(int N) {
  return (channelHeadOffset(N) + sizeof(ChannelHead) * N * N + 4095) &
         ~size_t(4095);
}
size_t segmentBytes(int N) {
  return channelDataOffset(N) + size_t(N) * N * kChannelBytes;
}

bool debugEnabled() {
  static bool On = std::getenv("DISTLINT_FAKE_NCCL_DEBUG") != nullptr;
  return On;
}

} // namespace

struct ncclComm {
  std::string Name;
  SegmentHeader *Seg = nullptr;
  char *Base = nullptr;
  int NRanks = 0;
  int Rank = 0;
  int Device = 0;
  uint64_t CollSeq = 0;  ///< Advanced in stream order on the worker thread.
  uint64_t SplitCount = 0;
  std::atomic<int> Aborted{0};
  std::atomic<int> AsyncError{ncclSuccess};

  RankSlot &slot(int R) { return Seg->Slots[R]; }
  char *stage(int R) { return Base + stageOffset() + size_t(R) * kStageBytes; }
  ChannelHead &channel(int Src, int Dst) {
    auto *Heads = reinterpret_cast<ChannelHead *>(Base + channelHeadOffset(NRanks));
    return Heads[Src * NRanks + Dst];
  }
  char *channelData(int Src, int Dst) {
    return Base + channelDataOffset(NRanks) + size_t(Src * NRanks + Dst) * kChannelBytes;
  }
};

namespace {

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

void failComm(ncclComm *Comm) {
  Comm->AsyncError.store(ncclSystemError);
}

size_t typeSize(ncclDataType_t Type) {
  switch (Type) {
  case ncclInt8:
  case ncclUint8:
  case ncclFloat8e4m3:
  case ncclFloat8e5m2:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  case ncclInt64:
  case ncclUint64:
  case ncclFloat64:
    return 8;
  default:
    return 0;
  }
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  int Exp = (H >> 10) & 0x1f;
  uint32_t Mant = H & 0x3ff;
  float F;
  if (Exp == 0)
    F = std::ldexp(float(Mant), -24);
  else if (Exp == 31)
    F = Mant ? NAN : INFINITY;
  else
    F = std::ldexp(float(Mant | 0x400), Exp - 25);
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  Bits |= Sign;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToHalf(float F) {
  uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  F = std::fabs(F);
  if (std::isnan(F))
    return Sign | 0x7e00;
  if (F >= 65520.f)
    return Sign | 0x7c00;
  if (F < std::ldexp(1.f, -24) / 2)
    return Sign;
  int Exp;
  std::frexp(F, &Exp); // F = m * 2^Exp, m in [0.5,1)
  int HalfExp = Exp - 1 + 15;
  if (HalfExp <= 0) // subnormal: units of 2^-24
    return Sign | uint16_t(std::nearbyint(std::ldexp(F, 24)));
  uint32_t Mant = uint32_t(std::nearbyint(std::ldexp(F, 11 - Exp))); // 11 bits
  if (Mant == 0x800) {
    Mant = 0x400;
    ++HalfExp;
  }
  if (HalfExp >= 31)
    return Sign | 0x7c00;
  return Sign | uint16_t(HalfExp << 10) | uint16_t(Mant & 0x3ff);
}

float bf16ToFloat(uint16_t B) {
  uint32_t Bits = uint32_t(B) << 16;
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

uint16_t floatToBf16(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  if (std::isnan(F))
    return uint16_t((Bits >> 16) | 0x40);
  Bits += 0x7fff + ((Bits >> 16) & 1);
  return uint16_t(Bits >> 16);
}

template <class T> T combine(T A, T B, ncclRedOp_t Op) {
  switch (Op) {
  case ncclSum:
  case ncclAvg:
    return T(A + B);
  case ncclProd:
    return T(A * B);
  case ncclMax:
    return std::max(A, B);
  case ncclMin:
    return std::min(A, B);
  default:
    return A;
  }
}

/// Reduces Inputs[0..N) elementwise into Out, in rank order so every rank
/// computes bit-identical results.
template <class T>
void reduceNative(void *Out, const std::vector<const char *> &Inputs, size_t Count,
                  ncclRedOp_t Op) {
  T *Dst = static_cast<T *>(Out);
  for (size_t I = 0; I < Count; ++I) {
    T Acc = reinterpret_cast<const T *>(Inputs[0])[I];
    for (size_t R = 1; R < Inputs.size(); ++R)
      Acc = combine(Acc, reinterpret_cast<const T *>(Inputs[R])[I], Op);
    if (Op == ncclAvg)
      Acc = T(Acc / T(Inputs.size()));
    Dst[I] = Acc;
  }
}

template <float (*Load)(uint16_t), uint16_t (*Store)(float)>
void reduceHalfLike(void *Out, const std::vector<const char *> &Inputs,
                    size_t Count, ncclRedOp_t Op) {
  uint16_t *Dst = static_cast<uint16_t *>(Out);
  for (size_t I = 0; I < Count; ++I) {
    float Acc = Load(reinterpret_cast<const uint16_t *>(Inputs[0])[I]);
    for (size_t R = 1; R < Inputs.size(); ++R)
      Acc = combine(Acc, Load(reinterpret_cast<const uint16_t *>(Inputs[R])[I]), Op);
    if (Op == ncclAvg)
      Acc /= float(Inputs.size());
    Dst[I] = Store(Acc);
  }
}

void reduce(void *Out, const std::vector<const char *> &Inputs, size_t Count,
            ncclDataType_t Type, ncclRedOp_t Op) {
  switch (Type) {
  case ncclInt8:
    return reduceNative<int8_t>(Out, Inputs, Count, Op);
  case ncclUint8:
    return reduceNative<uint8_t>(Out, Inputs, Count, Op);
  case ncclInt32:
    return reduceNative<int32_t>(Out, Inputs, Count, Op);
  case ncclUint32:
    return reduceNative<uint32_t>(Out, Inputs, Count, Op);
  case ncclInt64:
    return reduceNative<int64_t>(Out, Inputs, Count, Op);
  case ncclUint64:
    return reduceNative<uint64_t>(Out, Inputs, Count, Op);
  case ncclFloat32:
    return reduceNative<float>(Out, Inputs, Count, Op);
  case ncclFloat64:
    return reduceNative<double>(Out, Inputs, Count, Op);
  case ncclFloat16:
    return reduceHalfLike<halfToFloat, floatToHalf>(Out, Inputs, Count, Op);
  case ncclBfloat16:
    return reduceHalfLike<bf16ToFloat, floatToBf16>(Out, Inputs, Count, Op);
  default:
    return; // fp8 reductions are refused at the call.
  }
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

} // namespace

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
    Threads.emplace_back([&, D] { Results[D] = joinComm(idName(Id), NDev, D, &Comms[D]); });
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
  std::string Name = P->Name + "-s" + std::to_string(Seq) + "-c" + std::to_string(Color);
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

ncclResult_t pncclCommRegister(const ncclComm_t, void *, size_t, void **Handle) {
  *Handle = nullptr;
  return ncclSuccess;
}

ncclResult_t pncclCommDeregister(const ncclComm_t, void *) { return ncclSuccess; }

ncclResult_t pncclCommWindowRegister(ncclComm_t, void *, size_t, ncclWindow_t *,
                                     int) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommWindowDeregister(ncclComm_t, ncclWindow_t) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommShrink(ncclComm_t, int *, int, ncclComm_t *, ncclConfig_t *,
                             int) {
  return ncclInvalidUsage;
}

ncclResult_t pncclCommRevoke(ncclComm_t, int) { return ncclInvalidUsage; }

ncclResult_t pncclRedOpCreatePreMulSum(ncclRedOp_t *, void *, ncclDataType_t,
                                       ncclScalarResidence_t, ncclComm_t) {
  return ncclInvalidUsage;
}

ncclResult_t pncclRedOpDestroy(ncclRedOp_t, ncclComm_t) { return ncclInvalidUsage; }

ncclResult_t pncclReduce(const void *Send, void *Recv, size_t Count,
                         ncclDataType_t Type, ncclRedOp_t Op, int Root,
                         ncclComm_t Comm, cudaStream_t Stream) {
  return collective(CollKind::Reduce, Send, Recv, Count, Type, Op, Root, Comm, Stream);
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
                            ncclDataType_t Type, ncclRedOp_t Op, ncclComm_t Comm,
                            cudaStream_t Stream) {
  return collective(CollKind::AllReduce, Send, Recv, Count, Type, Op, 0, Comm, Stream);
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
  return collective(CollKind::AllGather, Send, Recv, SendCount, Type, ncclSum, 0,
                    Comm, Stream);
}

ncclResult_t pncclAlltoAll(const void *Send, void *Recv, size_t Count,
                           ncclDataType_t Type, ncclComm_t Comm,
                           cudaStream_t Stream) {
  return collective(CollKind::AlltoAll, Send, Recv, Count, Type, ncclSum, 0, Comm,
                    Stream);
}

ncclResult_t pncclGather(const void *Send, void *Recv, size_t Count,
                         ncclDataType_t Type, int Root, ncclComm_t Comm,
                         cudaStream_t Stream) {
  return collective(CollKind::Gather, Send, Recv, Count, Type, ncclSum, Root, Comm,
                    Stream);
}

ncclResult_t pncclScatter(const void *Send, void *Recv, size_t Count,
                          ncclDataType_t Type, int Root, ncclComm_t Comm,
                          cudaStream_t Stream) {
  return collective(CollKind::Scatter, Send, Recv, Count, Type, ncclSum, Root, Comm,
                    Stream);
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
