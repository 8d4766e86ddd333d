//===- Runtime.cpp - Per-process state of the preload library
//--------------===//
#include "Runtime.h"
#include "DriverApi.h"
#include "LiveCompare.h"
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

namespace {

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  long N = std::strtol(V, &End, 10);
  return (End && *End == 0) ? int(N) : Default;
}

/// The first of Names that is set, as an int.
int firstEnvInt(std::initializer_list<const char *> Names, int Default) {
  for (const char *N : Names) {
    int V = envInt(N, INT32_MIN);
    if (V != INT32_MIN)
      return V;
  }
  return Default;
}

/// A setting that is set but not usable gets one line and its default.
void warnSetting(const char *Name, const char *Value, const char *Want,
                 const char *Default) {
  logLine("%s=%s is not %s; using the default (%s)", Name, Value, Want,
          Default);
}

/// A 0/1 switch.
bool envSwitch(const char *Name, bool Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  if (std::strcmp(V, "0") == 0 || std::strcmp(V, "1") == 0)
    return V[0] == '1';
  warnSetting(Name, V, "0 or 1", Default ? "1" : "0");
  return Default;
}

/// The launch's id: distlint-rt run's, else one every rank of the job can
/// derive from its launcher's job id, else 0 (unknown).
uint64_t readRunId() {
  if (const char *V = std::getenv("DISTLINT_RT_RUN_ID"); V && *V) {
    char *End = nullptr;
    uint64_t Id = std::strtoull(V, &End, 16);
    if (End && *End == 0 && Id)
      return Id;
    warnSetting("DISTLINT_RT_RUN_ID", V, "a non-zero hexadecimal id",
                "the job's id");
  }
  for (const char *Name :
       {"TORCHELASTIC_RUN_ID", "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
        "SLURM_JOB_ID", "PMI_ID_FILE"})
    if (const char *V = std::getenv(Name); V && *V) {
      uint64_t H =
          hashBytes(V, std::strlen(V), hashBytes(Name, std::strlen(Name)));
      if (const char *Step = std::getenv("SLURM_STEP_ID");
          Step && Name[0] == 'S')
        H = hashBytes(Step, std::strlen(Step), H);
      return H ? H : 1;
    }
  return 0;
}

Config readConfig() {
  Config C;
  if (const char *D = std::getenv("DISTLINT_RT_DIR"); D && *D)
    C.Dir = D;
  if (const char *T = std::getenv("DISTLINT_RT_TIMEOUT"); T && *T) {
    char *End = nullptr;
    double Seconds = std::strtod(T, &End);
    if (End && *End == 0 && Seconds > 0 && Seconds < 1e9)
      C.TimeoutNs = uint64_t(Seconds * 1e9);
    else
      warnSetting("DISTLINT_RT_TIMEOUT", T, "a number of seconds > 0", "300");
  }
  C.AbortOnHang = envSwitch("DISTLINT_RT_ABORT", false);
  C.Disabled = envSwitch("DISTLINT_RT_DISABLE", false);
  C.Live = envSwitch("DISTLINT_RT_LIVE", true);
  if (const char *R = std::getenv("DISTLINT_RT_RECORDS"); R && *R) {
    char *End = nullptr;
    long N = std::strtol(R, &End, 10);
    if (End && *End == 0 && N >= 64 && N <= (1l << 30))
      C.Records = uint32_t(N);
    else
      warnSetting("DISTLINT_RT_RECORDS", R, "a record count from 64 to 2^30",
                  "65536");
  }
  C.RunId = readRunId();
  // Launchers' conventions: torchrun / distlint-rt, Open MPI, PMIx, MPICH
  // (PMI), Slurm.
  C.EnvRank = firstEnvInt(
      {"RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"},
      -1);
  C.EnvWorldSize = firstEnvInt(
      {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}, 0);
  C.EnvLocalRank = firstEnvInt({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                "MPI_LOCALRANKID", "SLURM_LOCALID"},
                               -1);
  return C;
}

std::atomic<int> KnownRank{-2}; // -2: not yet read from the environment.

} // namespace

const Config &config() {
  // Never destroyed: the watchdog thread and late hooks (other libraries'
  // exit handlers) read it while exit() runs the static destructors.
  static const Config &C = *new Config(readConfig());
  return C;
}

void logLine(const char *Format, ...) {
  char Buf[1024];
  int N = std::snprintf(Buf, sizeof(Buf), "distlint-rt: ");
  va_list Args;
  va_start(Args, Format);
  int M = std::vsnprintf(Buf + N, sizeof(Buf) - N - 1, Format, Args);
  va_end(Args);
  size_t Len =
      size_t(N) + (M < 0 ? 0 : std::min<size_t>(M, sizeof(Buf) - N - 2));
  Buf[Len++] = '\n';
  ssize_t Ignored = write(2, Buf, Len);
  (void)Ignored;
}

int globalRank() {
  int R = KnownRank.load(std::memory_order_relaxed);
  if (R == -2) {
    R = config().EnvRank;
    int Unset = -2;
    KnownRank.compare_exchange_strong(Unset, R);
  }
  return R;
}

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

// ---- Communicators
// ---------------------------------------------------------------------

namespace {
constexpr unsigned kCommEntries = 1024;
CommState Comms[kCommEntries];
std::mutex CommMu;
std::atomic<uint64_t> AdoptedCount[kNumApis];

inline unsigned commSlot(uintptr_t Handle) {
  return unsigned((Handle * 0x9E3779B97F4A7C15ull) >> 54) & (kCommEntries - 1);
}
} // namespace

CommState *findComm(Api ApiId, uintptr_t Handle) {
  unsigned S = commSlot(Handle ^ uintptr_t(ApiId));
  for (unsigned Probe = 0; Probe < kCommEntries; ++Probe) {
    CommState &C = Comms[(S + Probe) & (kCommEntries - 1)];
    uintptr_t H = C.Handle.load(std::memory_order_acquire);
    if (H == 0)
      return nullptr;
    if (H == Handle && C.ApiId == ApiId) // A freed handle is met anew.
      return C.Live.load(std::memory_order_relaxed) ? &C : nullptr;
  }
  return nullptr;
}

CommState *addComm(Api ApiId, uintptr_t Handle, uint64_t Id, int Rank,
                   int Size) {
  std::lock_guard<std::mutex> Lock(CommMu);
  unsigned S = commSlot(Handle ^ uintptr_t(ApiId));
  CommState *Target = nullptr;
  for (unsigned Probe = 0; Probe < kCommEntries; ++Probe) {
    CommState &C = Comms[(S + Probe) & (kCommEntries - 1)];
    uintptr_t H = C.Handle.load(std::memory_order_relaxed);
    if (H == 0 || (H == Handle && C.ApiId == ApiId)) {
      Target = &C;
      break;
    }
  }
  if (!Target)
    return nullptr;
  int Peers = Size > 0 ? Size : 1;
  // Re-registration of a reused handle replaces the state; the old arrays
  // leak on purpose (another thread might still read them).
  Target->ApiId = ApiId;
  Target->Id = Id;
  Target->Rank = Rank;
  Target->Size = Size;
  Target->CollSeq.store(0);
  Target->Children.store(0);
  Target->AnySourceSeq.store(0);
  Target->SendSeq = new std::atomic<uint64_t>[Peers]();
  Target->RecvSeq = new std::atomic<uint64_t>[Peers]();
  Target->AbortIssued.store(0);
  Target->AsyncErrorSeen.store(0);
  Target->Live.store(1);
  Target->Handle.store(Handle, std::memory_order_release);
  return Target;
}

void dropComm(CommState *Comm) {
  if (Comm)
    Comm->Live.store(0, std::memory_order_release);
}

uint64_t adoptedCommId(Api ApiId) {
  uint64_t N = AdoptedCount[unsigned(ApiId) % kNumApis].fetch_add(1) + 1;
  return hashMix(0x61646f7074656400ull + uint64_t(ApiId), N);
}

void forEachComm(void (*Fn)(CommState *, void *), void *Arg) {
  for (CommState &C : Comms)
    if (C.Handle.load(std::memory_order_acquire) && C.Live.load())
      Fn(&C, Arg);
}

void recordCommCreate(CommState *Comm, OpCode Via, uint64_t ParentId, int Color,
                      const CallSite &Site, int Result) {
  TraceWriter *T = trace();
  if (!T || !Comm)
    return;
  uint64_t Slot;
  TraceRecord *R = T->claim(Slot);
  uint64_t Now = monotonicNs();
  R->Seq = 0;
  R->CommId = Comm->Id;
  R->Count = 0;
  R->StartNs = Now;
  R->EndNs.store(Now, std::memory_order_relaxed);
  R->Aux = ParentId;
  R->Kind = uint32_t(RecordKind::CommCreate);
  R->ApiId = uint16_t(Comm->ApiId);
  R->Op = uint16_t(Via);
  R->DataType = -1;
  R->RedOp = -1;
  R->Peer = kNoPeer;
  R->CommRank = Comm->Rank;
  R->CommSize = Comm->Size;
  R->Group = 0;
  R->State.store(StateReturned | StateCompleted, std::memory_order_relaxed);
  R->Progress.store(0, std::memory_order_relaxed);
  R->Result = Result;
  R->Tid = uint32_t(syscall(SYS_gettid));
  R->Tag = Color;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    R->Frames[I] = Site.Frames[I];
  T->commit(R, Slot);
}

// ---- Watchdog
// -----------------------------------------------------------------------------

namespace {

AbortHandler AbortHandlers[kNumApis];
std::atomic<int> WatchdogStarted{0};

/// The 32-bit form distlint-rt report shows.
uint64_t shortId(uint64_t Id) { return (Id >> 32) ^ (Id & 0xffffffffull); }

const char *modulePathOf(TraceWriter &T, PackedFrame F) {
  if (!frameValid(F))
    return "?";
  TraceHeader &H = T.header();
  uint32_t Index = frameModule(F);
  if (Index >= H.ModuleCapacity)
    return "?";
  auto *Modules = reinterpret_cast<ModuleEntry *>(reinterpret_cast<char *>(&H) +
                                                  H.ModulesOffset);
  return Modules[Index].Ready.load() ? Modules[Index].Path : "?";
}

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
  if (Op && Op->CommId)
    logLine(
        "rank %d: %s #%llu on communicator %08llx not complete after %.1f s "
        "(call-site %s+0x%llx); run `distlint-rt report %s`",
        globalRank(), What, (unsigned long long)Op->Seq,
        (unsigned long long)shortId(Op->CommId), Seconds, modulePathOf(T, Site),
        (unsigned long long)frameOffset(Site), config().Dir.c_str());
  else
    logLine("rank %d: blocked in %s for %.1f s (call-site %s+0x%llx); run "
            "`distlint-rt report %s`",
            globalRank(), What, Seconds, modulePathOf(T, Site),
            (unsigned long long)frameOffset(Site), config().Dir.c_str());
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

void setGlobalRank(int Rank, int WorldSize) {
  KnownRank.store(Rank);
  if (TraceWriter *T = trace())
    T->setRank(Rank, WorldSize);
}

} // namespace rt
} // namespace distlint
