//===- Watchdog.cpp - Hangs reported and communicators aborted ------------===//
//
// A thread polls the pending operations (every timeout/8, between 10 and
// 250 ms), queries their events, writes a hang record for anything pending
// past DISTLINT_RT_TIMEOUT (once) and, with DISTLINT_RT_ABORT=1, aborts the
// communicator; with the live comparison on it compares the ranks' traces.
//
//===----------------------------------------------------------------------===//
#include "DriverApi.h"
#include "LiveCompare.h"
#include "PendingTable.h"
#include "PythonFrames.h"
#include "Support.h"
#include "TraceNames.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <ctime>

namespace distlint {
namespace rt {

namespace {

AbortHandler AbortHandlers[kNumApis];
std::atomic<int> WatchdogStarted{0};

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
          globalRank(), (unsigned long long)shortCommId(Comm->Id));
  Handler(Comm);
}

} // namespace

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
  double Seconds = double(elapsedNs(Now, E.StartNs)) / 1e9;
  char Where[512];
  describeFrame(T.header(), Site, Where, sizeof(Where));
  if (Op && Op->CommId)
    logLine("rank %d: %s #%llu on communicator %08llx not complete after %.1f "
            "s (call-site %s); run `distlint-rt report %s`",
            globalRank(), What, (unsigned long long)Op->Seq,
            (unsigned long long)shortCommId(Op->CommId), Seconds, Where,
            config().Dir.c_str());
  else
    logLine("rank %d: blocked in %s for %.1f s (call-site %s); run "
            "`distlint-rt report %s`",
            globalRank(), What, Seconds, Where, config().Dir.c_str());
  abortJobOf(opInfo(E.Op).ApiId, E.Comm);
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

} // namespace

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
    // An entry claimed after Now was read has not waited at all.
    if (elapsedNs(Now, V.StartNs) > config().TimeoutNs &&
        E.ReportedGeneration != Gen) {
      E.ReportedGeneration = Gen;
      reportHang(T, V, Now);
    }
  }
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

void resetWatchdogAfterFork() { WatchdogStarted.store(0); }

void setAbortHandler(Api ApiId, AbortHandler Handler) {
  AbortHandlers[unsigned(ApiId) % kNumApis] = Handler;
}

} // namespace rt
} // namespace distlint
