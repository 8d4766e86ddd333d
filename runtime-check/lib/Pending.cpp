//===- Pending.cpp - Operations from their call to their completion -------===//
//
// beginOp/endOp*, the pending table each thread claims entries of without a
// lock, CUDA events recorded for NCCL operations (deferred inside groups),
// and host syncs and waits.
//
//===----------------------------------------------------------------------===//
#include "DriverApi.h"
#include "OpRecord.h"
#include "PendingTable.h"
#include "Support.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mutex>
#include <vector>

namespace distlint {
namespace rt {

PendingEntry Pending[kPendingEntries];
DLRT_TLS int32_t MyBlock = -1;
DLRT_TLS uint32_t MyHint;
DLRT_TLS uint32_t MyTid;

namespace {
std::atomic<uint32_t> BlocksHandedOut{0};
std::atomic<uint32_t> SharedHint{0};
std::mutex FreeBlocksMu;
std::vector<int32_t> *FreeBlocks;
pthread_key_t BlockKey;

void returnBlock(void *Value) {
  std::lock_guard<std::mutex> Lock(FreeBlocksMu);
  if (!FreeBlocks)
    FreeBlocks = new std::vector<int32_t>();
  FreeBlocks->push_back(int32_t(intptr_t(Value)) - 1);
}

int32_t myBlock() {
  if (DLRT_LIKELY(MyBlock != -1))
    return MyBlock;
  int32_t Block = -2;
  {
    std::lock_guard<std::mutex> Lock(FreeBlocksMu);
    if (FreeBlocks && !FreeBlocks->empty()) {
      Block = FreeBlocks->back();
      FreeBlocks->pop_back();
    }
  }
  if (Block == -2) {
    uint32_t N = BlocksHandedOut.fetch_add(1);
    if (N < kBlocks)
      Block = int32_t(N);
  }
  if (Block >= 0) {
    static std::once_flag KeyOnce;
    std::call_once(KeyOnce, [] { pthread_key_create(&BlockKey, returnBlock); });
    pthread_setspecific(BlockKey,
                        reinterpret_cast<void *>(intptr_t(Block) + 1));
  }
  MyBlock = Block;
  return Block;
}

/// The owner's block is full of operations waiting for the GPU: check their
/// events itself, oldest first, instead of waiting for the watchdog.
bool reapBlock(uint32_t Base) {
  const DriverApi *Cuda = driverApi();
  if (!Cuda)
    return false;
  uint64_t Now = monotonicNs();
  bool Freed = false;
  for (uint32_t I = 0; I < kBlockEntries; ++I)
    Freed |= checkEvent(Pending[Base + I], Cuda, Now);
  return Freed;
}

DLRT_TLS uint32_t SharedBackoff; ///< Claims to skip the full shared region for.
DLRT_TLS uint32_t ReapBackoff;   ///< Claims to skip checking our events for.

} // namespace

int32_t claimPendingSlow(uint64_t Slot, uint64_t StartNs, CommState *Comm,
                         OpCode Op, PackedFrame Site) {
  int32_t Block = myBlock();
  if (DLRT_LIKELY(Block >= 0)) {
    uint32_t Base = uint32_t(Block) * kBlockEntries;
    for (int Attempt = 0; Attempt < 2; ++Attempt) {
      for (uint32_t I = 0; I < kBlockEntries; ++I) {
        uint32_t Offset = (MyHint + I) & (kBlockEntries - 1);
        PendingEntry &E = Pending[Base + Offset];
        if (E.State.load(std::memory_order_acquire) != PendingFree)
          continue;
        fillPending(E, Slot, StartNs, Comm, Op, Site);
        MyHint = Offset; // Usually free again by the next call.
        return int32_t(Base + Offset);
      }
      if (Attempt > 0 || ReapBackoff) {
        ReapBackoff -= ReapBackoff > 0;
        break;
      }
      if (!reapBlock(Base)) {
        ReapBackoff = kBlockEntries; // The GPU is behind: look again later.
        break;
      }
    }
  }
  if (SharedBackoff == 0) {
    uint32_t Start = SharedHint.load(std::memory_order_relaxed);
    for (uint32_t I = 0; I < kSharedEntries; ++I) {
      uint32_t Index = kSharedBase + ((Start + I) & (kSharedEntries - 1));
      PendingEntry &E = Pending[Index];
      uint32_t Expected = PendingFree;
      if (E.State.load(std::memory_order_relaxed) != PendingFree ||
          !E.State.compare_exchange_strong(Expected, PendingClaimed,
                                           std::memory_order_acquire))
        continue;
      fillPending(E, Slot, StartNs, Comm, Op, Site);
      SharedHint.store(Start + I + 1, std::memory_order_relaxed);
      return int32_t(Index);
    }
    SharedBackoff = 1024; // Full: do not rescan it on every call.
  } else {
    --SharedBackoff;
  }
  if (TraceWriter *T = traceIfOpen())
    T->header().UntrackedOps.fetch_add(1, std::memory_order_relaxed);
  return -1;
}

namespace {

/// Others (watchdog, request completion) set progress bits.
void progressSets(TraceRecord *R, uint32_t Bits, uint64_t Now) {
  if (!R)
    return;
  R->EndNs.store(Now, std::memory_order_relaxed);
  R->Progress.fetch_or(uint16_t(Bits), std::memory_order_release);
}

} // namespace

/// Takes an AwaitEvent entry, queries its event, and frees it if the GPU
/// finished (marking the record completed). True if it freed the entry.
bool checkEvent(PendingEntry &E, const DriverApi *Cuda, uint64_t Now) {
  uint32_t Expected = PendingAwaitEvent;
  if (E.State.load(std::memory_order_relaxed) != PendingAwaitEvent ||
      !E.State.compare_exchange_strong(Expected, PendingChecking,
                                       std::memory_order_acquire))
    return false;
  void *Saved = nullptr;
  Cuda->CtxGetCurrent(&Saved);
  if (Saved != E.EventCtx)
    Cuda->CtxSetCurrent(E.EventCtx);
  int Q = Cuda->EventQuery(E.Event);
  if (Saved != E.EventCtx)
    Cuda->CtxSetCurrent(Saved);
  TraceWriter *T = traceIfOpen();
  if (Q == DriverApi::Success || Q != DriverApi::NotReady) {
    if (Q != DriverApi::Success)
      E.Event = nullptr; // Unusable (context destroyed?): do not reuse it.
    progressSets(T ? T->recordAt(E.Slot) : nullptr,
                 Q == DriverApi::Success ? StateCompleted : StateUntracked,
                 Now);
    E.State.store(PendingFree, std::memory_order_release);
    return true;
  }
  E.State.store(PendingAwaitEvent, std::memory_order_release);
  return false;
}

void markCompleted(TraceWriter &T, uint64_t Slot) {
  progressSets(T.recordAt(Slot), StateCompleted, monotonicNs());
}

void settleAwaitedEvents() {
  const DriverApi *Cuda = driverApi();
  if (!Cuda)
    return;
  uint64_t Now = monotonicNs();
  for (PendingEntry &E : Pending)
    if (E.State.load(std::memory_order_relaxed) == PendingAwaitEvent)
      checkEvent(E, Cuda, Now);
}

namespace {

constexpr unsigned kMaxDeferred = 512;
DLRT_TLS int32_t Deferred[kMaxDeferred];
DLRT_TLS uint32_t DeferredCount;

/// Records the entry's event on its stream and hands the entry to the
/// watchdog; falls back to "untracked" when the driver cannot help.
void armEvent(int32_t Index, TraceRecord *R) {
  PendingEntry &E = Pending[Index];
  const DriverApi *Cuda = driverApi();
  uint32_t Why = StateUntracked;
  if (Cuda) {
    int Capture = DriverApi::CaptureNone;
    void *Ctx = nullptr;
    if (Cuda->StreamIsCapturing(E.Stream, &Capture) == DriverApi::Success &&
        Capture != DriverApi::CaptureNone) {
      Why = StateCaptured; // Runs when the graph is launched: not ours to see.
    } else if (Cuda->CtxGetCurrent(&Ctx) == DriverApi::Success && Ctx) {
      if (E.Event && E.EventCtx != Ctx)
        E.Event = nullptr; // Belongs to another context; leave it be.
      if (!E.Event &&
          Cuda->EventCreate(&E.Event, DriverApi::EventDisableTiming) !=
              DriverApi::Success)
        E.Event = nullptr;
      E.EventCtx = Ctx;
      if (E.Event &&
          Cuda->EventRecord(E.Event, E.Stream) == DriverApi::Success) {
        E.State.store(PendingAwaitEvent, std::memory_order_release);
        return;
      }
    }
  }
  if (R)
    ownerSets(R, Why);
  freeEntry(Index);
}

} // namespace

DLRT_TLS int NcclGroupDepth;
DLRT_TLS uint32_t NcclGroupOrdinal;

void endOpOnStream(OpHandle &H, int Result, bool Failed, void *Stream,
                   bool InGroup) {
  H.Rec->Result = Result;
  if (Failed) {
    H.Rec->EndNs.store(monotonicNs(), std::memory_order_relaxed);
    ownerSets(H.Rec, StateReturned | StateFailed);
    releasePending(H);
    return;
  }
  // Without a CUDA driver (or with DISTLINT_RT_EVENTS=0) completion cannot be
  // observed: the op is done with as soon as it returns.
  if (H.Pending < 0 || (!InGroup && !driverApi())) {
    ownerSets(H.Rec, StateReturned | StateUntracked);
    releasePending(H);
    return;
  }
  ownerSets(H.Rec, StateReturned);
  PendingEntry &E = Pending[H.Pending];
  E.Stream = Stream;
  if (InGroup) {
    if (DeferredCount < kMaxDeferred) {
      Deferred[DeferredCount++] = H.Pending;
      E.State.store(PendingAwaitGroup, std::memory_order_release);
      H.Pending = -1;
      return;
    }
    ownerSets(H.Rec, StateUntracked);
    releasePending(H);
    return;
  }
  armEvent(H.Pending, H.Rec);
  H.Pending = -1;
}

void ncclGroupEnded(int Result) {
  TraceWriter *T = traceIfOpen();
  for (uint32_t I = 0; I < DeferredCount; ++I) {
    int32_t Index = Deferred[I];
    TraceRecord *R = T ? T->recordAt(Pending[Index].Slot) : nullptr;
    if (Result != 0) {
      if (R) {
        R->Result = Result;
        R->EndNs.store(monotonicNs(), std::memory_order_relaxed);
        ownerSets(R, StateFailed);
      }
      freeEntry(Index);
      continue;
    }
    armEvent(Index, R);
  }
  DeferredCount = 0;
}

SyncHandle beginSync(TraceWriter &T, OpCode Op, const CallSite &Site) {
  (void)T;
  SyncHandle H;
  H.StartNs = monotonicNs();
  H.Op = Op;
  H.Site = Site.Frames[0];
  H.Pending = claimPending(kNoSlot, H.StartNs, nullptr, Op, Site.Frames[0]);
  return H;
}

SyncHandle beginWait(OpCode Op, const CallSite &Site, CommState *Comm) {
  SyncHandle H;
  H.StartNs = monotonicNs();
  H.Op = Op;
  H.Site = Site.Frames[0];
  H.Pending = claimPending(kNoSlot, H.StartNs, Comm, Op, Site.Frames[0]);
  return H;
}

void endWait(SyncHandle &H) {
  freeEntry(H.Pending);
  H.Pending = -1;
}

void endSync(TraceWriter &T, SyncHandle &H) {
  uint64_t Now = monotonicNs();
  T.countSync(H.Op, H.Site, elapsedNs(Now, H.StartNs));
  freeEntry(H.Pending);
  H.Pending = -1;
}

void resetPendingAfterFork() {
  for (PendingEntry &E : Pending)
    E.State.store(PendingFree);
  MyBlock = -1; // The forking thread's block entries were just freed.
  MyTid = 0;    // The child is another thread of another process.
  NcclGroupDepth = 0;
  DeferredCount = 0;
}

} // namespace rt
} // namespace distlint
