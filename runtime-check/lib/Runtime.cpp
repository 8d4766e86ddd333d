//===- Runtime.cpp - Pending operations, the watchdog, the trace ----------===//
//
// The lock-free table of operations in flight, the watchdog thread that
// reads it, and the trace's life cycle (open, exit, fork): one file because
// all three share the table's internals. Settings: RuntimeConfig.cpp;
// communicators: Communicators.cpp.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "DriverApi.h"
#include "LiveCompare.h"
#include "PythonFrames.h"
#include "Support.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace distlint {
namespace rt {

DLRT_TLS int HookDepth;
std::atomic<TraceWriter *> CurrentTrace{nullptr};

// ---- Pending operations
// ---------------------------------------------------------------

namespace {

// Ownership of pending entries: the thread that claims an entry is its only
// writer until it frees it or hands it over (AwaitEvent); an AwaitEvent entry
// is checked by whoever takes it with a CAS (the watchdog, or the owner when
// its block runs full). The watchdog only reads entries a thread holds and
// checks Generation to drop copies torn by reuse. Each thread claims from a
// block of its own, so the call's path needs no locked instruction; threads
// beyond the blocks share the rest of the table through a CAS.
enum PendingState : uint32_t {
  PendingFree = 0,
  PendingInCall,     ///< Inside the real call (the host may block there).
  PendingAwaitGroup, ///< Returned inside a group that has not ended yet.
  PendingAwaitEvent, ///< Waiting for Event; whoever looks takes it with a CAS.
  PendingClaimed,    ///< A shared entry being filled.
  PendingChecking,   ///< An AwaitEvent entry being queried (owner or watchdog).
};

constexpr unsigned kBlockEntries = 64; // A power of two.
constexpr unsigned kBlocks = 96;
constexpr unsigned kSharedEntries = 2048; // A power of two.
constexpr unsigned kSharedBase = kBlockEntries * kBlocks;
constexpr unsigned kPendingEntries = kSharedBase + kSharedEntries;
constexpr uint64_t kNoSlot = ~uint64_t(0);

/// A field the owner publishes under the entry's generation (a seqlock):
/// the watchdog copies it while it may change and throws the copy away when
/// the generation moved. Relaxed atomics make that copy defined behaviour
/// (plain moves on x86).
template <typename T> class Relaxed {
public:
  Relaxed &operator=(T X) {
    V.store(X, std::memory_order_relaxed);
    return *this;
  }
  operator T() const { return V.load(std::memory_order_relaxed); }

private:
  std::atomic<T> V{};
};

struct PendingEntry {
  std::atomic<uint32_t> State;
  std::atomic<uint32_t> Generation;
  uint32_t ReportedGeneration; ///< Written by the watchdog only.
  Relaxed<uint64_t> Slot;
  Relaxed<uint64_t> StartNs;
  Relaxed<CommState *> Comm;
  Relaxed<OpCode> Op;
  Relaxed<PackedFrame> Site;
  void *Event;
  void *EventCtx;
  void *Stream;
};

/// What the watchdog copied out of an entry.
struct PendingView {
  uint64_t Slot;
  uint64_t StartNs;
  CommState *Comm;
  OpCode Op;
  PackedFrame Site;
};

PendingEntry Pending[kPendingEntries];
std::atomic<uint32_t> BlocksHandedOut{0};
std::atomic<uint32_t> SharedHint{0};
std::mutex FreeBlocksMu;
std::vector<int32_t> *FreeBlocks;
pthread_key_t BlockKey;
DLRT_TLS int32_t MyBlock = -1; // -1: not asked yet; -2: none left.
DLRT_TLS uint32_t MyHint;

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

void fillPending(PendingEntry &E, uint64_t Slot, uint64_t StartNs,
                 CommState *Comm, OpCode Op, PackedFrame Site) {
  E.Generation.store(E.Generation.load(std::memory_order_relaxed) + 1,
                     std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  E.Slot = Slot;
  E.StartNs = StartNs;
  E.Comm = Comm;
  E.Op = Op;
  E.Site = Site;
  E.State.store(PendingInCall, std::memory_order_release);
}

bool checkEvent(PendingEntry &E, const DriverApi *Cuda, uint64_t Now);

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

int32_t claimPending(uint64_t Slot, uint64_t StartNs, CommState *Comm,
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

/// The owner sets its own bits: a plain read-modify-write.
void ownerSets(TraceRecord *R, uint32_t Bits) {
  R->State.store(uint16_t(R->State.load(std::memory_order_relaxed) | Bits),
                 std::memory_order_release);
}

/// Others (watchdog, request completion) set progress bits.
void progressSets(TraceRecord *R, uint32_t Bits, uint64_t Now) {
  if (!R)
    return;
  R->EndNs.store(Now, std::memory_order_relaxed);
  R->Progress.fetch_or(uint16_t(Bits), std::memory_order_release);
}

void freeEntry(int32_t Index) {
  if (Index >= 0)
    Pending[Index].State.store(PendingFree, std::memory_order_release);
}

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

} // namespace

OpHandle beginOp(TraceWriter &T, const OpDesc &D, const CallSite &Site,
                 bool Track) {
  OpHandle H;
  H.StartNs = monotonicNs();
  TraceRecord *R = T.claim(H.Slot);
  R->Seq = D.Seq;
  R->CommId = D.Comm ? D.Comm->Id : 0;
  R->Count = D.Count;
  R->StartNs = H.StartNs;
  R->EndNs.store(0, std::memory_order_relaxed);
  R->Aux = D.Aux;
  R->Kind = uint32_t(RecordKind::Op);
  R->ApiId = uint16_t(opInfo(D.Op).ApiId);
  R->Op = uint16_t(D.Op);
  R->DataType = D.DataType;
  R->RedOp = D.RedOp;
  R->Peer = D.Peer;
  R->CommRank = D.Comm ? D.Comm->Rank : -1;
  R->CommSize = D.Comm ? D.Comm->Size : 0;
  R->Group = D.Group;
  R->State.store(D.Group ? uint16_t(StateInGroup) : uint16_t(0),
                 std::memory_order_relaxed);
  R->Progress.store(0, std::memory_order_relaxed);
  R->Result = 0;
  static DLRT_TLS uint32_t Tid;
  if (DLRT_UNLIKELY(!Tid))
    Tid = uint32_t(syscall(SYS_gettid));
  R->Tid = Tid;
  R->Tag = D.Tag;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    R->Frames[I] = Site.Frames[I];
  T.commit(R, H.Slot);
  H.Rec = R;
  if (Track)
    H.Pending = claimPending(H.Slot, H.StartNs, D.Comm, D.Op, Site.Frames[0]);
  return H;
}

static void releasePending(OpHandle &H) {
  freeEntry(H.Pending);
  H.Pending = -1;
}

void endOpBlocking(OpHandle &H, int Result, bool Failed) {
  H.Rec->Result = Result;
  H.Rec->EndNs.store(monotonicNs(), std::memory_order_relaxed);
  ownerSets(H.Rec, StateReturned | (Failed ? StateFailed : StateCompleted));
  releasePending(H);
}

void endOpIssued(OpHandle &H, int Result, bool Failed) {
  H.Rec->Result = Result;
  ownerSets(H.Rec, StateReturned | (Failed ? uint32_t(StateFailed) : 0u));
  releasePending(H);
}

void markCompleted(TraceWriter &T, uint64_t Slot) {
  progressSets(T.recordAt(Slot), StateCompleted, monotonicNs());
}

namespace {

constexpr unsigned kMaxDeferred = 512;
DLRT_TLS int GroupDepth;
DLRT_TLS uint32_t GroupOrdinal;
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

int &ncclGroupDepth() { return GroupDepth; }
uint32_t &ncclGroupOrdinal() { return GroupOrdinal; }

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
  T.countSync(H.Op, H.Site, Now - H.StartNs);
  freeEntry(H.Pending);
  H.Pending = -1;
}

// ---- Watchdog
// -----------------------------------------------------------------------------

namespace {

AbortHandler AbortHandlers[kNumApis];
std::atomic<int> WatchdogStarted{0};

/// The 32-bit form distlint-rt report shows.
uint64_t shortId(uint64_t Id) { return (Id >> 32) ^ (Id & 0xffffffffull); }

void appendSimpleRecord(TraceWriter &T, RecordKind Kind, const PendingView *E,
                        TraceRecord *Op, uint64_t Now) {
  uint64_t Slot;
  TraceRecord *R = T.claim(Slot);
  R->Seq = Op ? Op->Seq : 0;
  R->CommId = Op ? Op->CommId : (E && E->Comm ? E->Comm->Id : 0);
  R->Count = Op ? Op->Count : 0;
  R->StartNs = E ? E->StartNs : Now;
  R->EndNs.store(Now, std::memory_order_relaxed);
  R->Aux = E ? E->Slot : 0;
  R->Kind = uint32_t(Kind);
  R->ApiId = uint16_t(E ? opInfo(E->Op).ApiId : Api::None);
  R->Op = uint16_t(E ? E->Op : OpCode::None);
  R->DataType = Op ? Op->DataType : -1;
  R->RedOp = Op ? Op->RedOp : -1;
  R->Peer = Op ? Op->Peer : kNoPeer;
  R->CommRank = Op ? Op->CommRank : (E && E->Comm ? E->Comm->Rank : -1);
  R->CommSize = Op ? Op->CommSize : (E && E->Comm ? E->Comm->Size : 0);
  R->Group = 0;
  R->State.store(0, std::memory_order_relaxed);
  R->Progress.store(0, std::memory_order_relaxed);
  R->Result = 0;
  R->Tid = uint32_t(syscall(SYS_gettid));
  R->Tag = 0;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    R->Frames[I] = Op ? Op->Frames[I] : (I == 0 && E ? E->Site : 0);
  T.commit(R, Slot);
}

void abortComm(CommState *Comm) {
  if (!Comm || Comm->AbortIssued.exchange(1))
    return;
  AbortHandler Handler = AbortHandlers[unsigned(Comm->ApiId) % kNumApis];
  if (!Handler)
    return;
  if (TraceWriter *T = traceIfOpen()) {
    T->header().Flags.fetch_or(HeaderAborted);
    uint64_t Slot;
    TraceRecord *R = T->claim(Slot);
    std::memset(static_cast<void *>(R), 0, sizeof(*R));
    R->Kind = uint32_t(RecordKind::WatchdogAbort);
    R->ApiId = uint16_t(Comm->ApiId);
    R->CommId = Comm->Id;
    R->CommRank = Comm->Rank;
    R->CommSize = Comm->Size;
    R->StartNs = monotonicNs();
    T->commit(R, Slot);
  }
  logLine("rank %d: aborting communicator %08llx (DISTLINT_RT_ABORT=1)",
          globalRank(), (unsigned long long)shortId(Comm->Id));
  Handler(Comm);
}

} // namespace

void recordAsyncError(CommState *Comm, int Error) {
  TraceWriter *T = trace();
  if (!T || !Comm || Comm->AsyncErrorSeen.exchange(1))
    return;
  uint64_t Slot;
  TraceRecord *R = T->claim(Slot);
  std::memset(static_cast<void *>(R), 0, sizeof(*R));
  R->Kind = uint32_t(RecordKind::AsyncError);
  R->ApiId = uint16_t(Comm->ApiId);
  R->Op = uint16_t(OpCode::NcclCommGetAsyncError);
  R->CommId = Comm->Id;
  R->CommRank = Comm->Rank;
  R->CommSize = Comm->Size;
  R->Result = Error;
  R->StartNs = monotonicNs();
  T->commit(R, Slot);
}

namespace {

void abortNcclComm(CommState *C, void *) {
  if (C->ApiId == Api::Nccl)
    abortComm(C);
}

/// MPI_Wait*, MPI_Finalize and the like block on no communicator of their
/// own; MPI_Abort on any communicator ends the whole job, so take the first.
void abortFirstMpiComm(CommState *C, void *Done) {
  if (C->ApiId == Api::Mpi && !*static_cast<bool *>(Done)) {
    *static_cast<bool *>(Done) = true;
    abortComm(C);
  }
}

} // namespace

void abortJobOf(Api ApiId, CommState *Comm) {
  if (!config().AbortOnHang)
    return;
  if (Comm) {
    abortComm(Comm);
  } else if (ApiId == Api::Mpi) {
    bool Done = false;
    forEachComm(abortFirstMpiComm, &Done);
  } else if (ApiId == Api::Cuda) {
    forEachComm(abortNcclComm, nullptr); // A host sync waits on NCCL work.
  }
}

namespace {

void reportHang(TraceWriter &T, const PendingView &E, uint64_t Now) {
  TraceRecord *Op = E.Slot != kNoSlot ? T.recordAt(E.Slot) : nullptr;
  if (Op)
    Op->Progress.fetch_or(StateHung, std::memory_order_release);
  appendSimpleRecord(T, RecordKind::Hang, &E, Op, Now);
  T.header().HangCount.fetch_add(1, std::memory_order_release);
  PackedFrame Site = Op ? Op->Frames[0] : E.Site;
  const char *What = opInfo(E.Op).Name;
  double Seconds = double(Now - E.StartNs) / 1e9;
  char Where[512];
  describeFrame(T.header(), Site, Where, sizeof(Where));
  if (Op && Op->CommId)
    logLine("rank %d: %s #%llu on communicator %08llx not complete after %.1f "
            "s (call-site %s); run `distlint-rt report %s`",
            globalRank(), What, (unsigned long long)Op->Seq,
            (unsigned long long)shortId(Op->CommId), Seconds, Where,
            config().Dir.c_str());
  else
    logLine("rank %d: blocked in %s for %.1f s (call-site %s); run "
            "`distlint-rt report %s`",
            globalRank(), What, Seconds, Where, config().Dir.c_str());
  abortJobOf(opInfo(E.Op).ApiId, E.Comm);
}

/// One look at every pending entry: completes operations whose CUDA event
/// fired, reports those pending past the timeout (once each).
void pollOnce(TraceWriter &T, uint64_t Now, const DriverApi *Cuda) {
  for (uint32_t I = 0; I < kPendingEntries; ++I) {
    PendingEntry &E = Pending[I];
    uint32_t S = E.State.load(std::memory_order_acquire);
    if (S == PendingFree || S == PendingClaimed || S == PendingChecking)
      continue;
    if (S == PendingAwaitEvent && Cuda && checkEvent(E, Cuda, Now))
      continue;
    uint32_t Gen = E.Generation.load(std::memory_order_acquire);
    PendingView V{E.Slot, E.StartNs, E.Comm, E.Op, E.Site};
    std::atomic_thread_fence(std::memory_order_acquire);
    S = E.State.load(std::memory_order_relaxed);
    if (E.Generation.load(std::memory_order_relaxed) != Gen || S == PendingFree)
      continue; // Finished or reused while we looked.
    if (Now - V.StartNs > config().TimeoutNs && E.ReportedGeneration != Gen) {
      E.ReportedGeneration = Gen;
      reportHang(T, V, Now);
    }
  }
}

void *watchdogMain(void *) {
  uint64_t Timeout = config().TimeoutNs;
  // The live comparison wants a short period even with a long timeout.
  uint64_t PollNs = config().Live ? Timeout / 16 : Timeout / 8;
  if (PollNs < 10000000ull)
    PollNs = 10000000ull;
  if (PollNs > (config().Live ? 100000000ull : 250000000ull))
    PollNs = config().Live ? 100000000ull : 250000000ull;
  for (;;) {
    timespec Ts{time_t(PollNs / 1000000000ull), long(PollNs % 1000000000ull)};
    nanosleep(&Ts, nullptr);
    TraceWriter *T = traceIfOpen();
    if (!T)
      continue;
    uint64_t Now = monotonicNs();
    T->header().HeartbeatNs.store(Now, std::memory_order_relaxed);
    HookScope Guard; // Calls the watchdog makes are not the program's.
    pollOnce(*T, Now, driverApi());
    if (config().Live)
      liveCompare(*T, monotonicNs());
  }
  return nullptr;
}

void startWatchdog() {
  if (WatchdogStarted.exchange(1))
    return;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  pthread_attr_setdetachstate(&Attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&Attr, 256 * 1024);
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old); // Signals stay with the program.
  pthread_t Thread;
  if (pthread_create(&Thread, &Attr, watchdogMain, nullptr) != 0)
    WatchdogStarted.store(0);
  else
    pthread_setname_np(Thread, "distlint-rt-wd");
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  pthread_attr_destroy(&Attr);
}

} // namespace

void setAbortHandler(Api ApiId, AbortHandler Handler) {
  AbortHandlers[unsigned(ApiId) % kNumApis] = Handler;
}

// ---- Trace life cycle
// -----------------------------------------------------------------------

namespace {

std::mutex TraceMu;
std::atomic<int> TraceFailed{0};
int ForkParentPid = 0; ///< Set in a child forked from a rank.

void mirrorModule(uint32_t Index, const char *Path) {
  if (TraceWriter *T = traceIfOpen())
    T->writeModule(Index, Path);
}

void recordExit() {
  TraceWriter *T = traceIfOpen();
  if (!T)
    return;
  {
    // Operations that finished since the watchdog last looked.
    HookScope Guard;
    pollOnce(*T, monotonicNs(), driverApi());
  }
  appendSimpleRecord(*T, RecordKind::ProcessExit, nullptr, nullptr,
                     monotonicNs());
  T->header().Flags.fetch_or(HeaderExited);
}

void afterForkInChild() {
  // The child gets its own trace (its pid) on first use; the parent's
  // pending operations and the watchdog thread did not come along.
  ForkParentPid = int(getppid());
  CurrentTrace.store(nullptr);
  TraceFailed.store(0);
  WatchdogStarted.store(0);
  for (PendingEntry &E : Pending)
    E.State.store(PendingFree);
  MyBlock = -1; // The forking thread's block entries were just freed.
  GroupDepth = 0;
  DeferredCount = 0;
  new (&TraceMu) std::mutex();
}

} // namespace

TraceWriter *trace() {
  TraceWriter *T = traceIfOpen();
  if (DLRT_LIKELY(T))
    return T;
  if (config().Disabled || TraceFailed.load())
    return nullptr;
  std::lock_guard<std::mutex> Lock(TraceMu);
  if ((T = traceIfOpen()))
    return T;
  TraceOptions Options;
  Options.Dir = config().Dir;
  Options.Records = config().Records;
  Options.TimeoutNs = config().TimeoutNs;
  Options.Rank = globalRank();
  Options.WorldSize = config().EnvWorldSize;
  Options.LocalRank = config().EnvLocalRank;
  Options.RunId = config().RunId;
  Options.ForkParentPid = ForkParentPid;
  std::string Error;
  T = TraceWriter::create(Options, Error);
  if (!T) {
    TraceFailed.store(1);
    logLine("%s; recording disabled, calls pass through", Error.c_str());
    return nullptr;
  }
  static std::atomic<int> HandlersInstalled{0};
  if (!HandlersInstalled.exchange(1)) {
    std::atexit(recordExit);
    pthread_atfork(nullptr, nullptr, afterForkInChild);
  }
  setModuleListener(mirrorModule);
  std::vector<std::string> Modules = knownModulePaths();
  for (size_t I = 0; I < Modules.size(); ++I)
    T->writeModule(uint32_t(I), Modules[I].c_str());
  CurrentTrace.store(T, std::memory_order_release);
  startWatchdog();
  return T;
}

} // namespace rt
} // namespace distlint
