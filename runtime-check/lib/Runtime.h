//===- Runtime.h - Per-process state of the preload library -----*- C++ -*-===//
//
// What the hooks share: configuration from the environment, this rank's
// trace, the communicator table (id, rank, size, sequence numbers), the table
// of operations still pending (for the watchdog) and the watchdog itself.
// Everything on a hook's path is lock-free; locks are taken only when a
// communicator is created or the trace file is set up.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "StackWalker.h"
#include "Support.h"
#include "TraceFormat.h"
#include "TraceWriter.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace distlint {
namespace rt {

struct Config {
  std::string Dir = "distlint-rt-traces";
  uint64_t TimeoutNs = 300ull * 1000000000ull;
  bool AbortOnHang = false;
  bool Disabled = false;
  uint32_t Records = 65536;
  bool Live = true; ///< Compare fingerprints with the other ranks' traces live.
  uint64_t RunId = 0;
  int EnvRank = -1, EnvWorldSize = 0, EnvLocalRank = -1;
};
const Config &config();

/// This rank's trace, created on first use; null when disabled or when the
/// file could not be created (reported once). Hooks then only forward.
inline TraceWriter *trace();
inline TraceWriter *traceIfOpen();
/// trace()'s first use: creates the trace file and starts the watchdog.
TraceWriter *openTrace();

/// Sets the global rank once a library tells it (MPI_Init).
void setGlobalRank(int Rank, int WorldSize);
/// The global rank if known (env or MPI), else -1.
int globalRank();

// ---- Communicators
// -------------------------------------------------------------

struct CommState {
  std::atomic<uintptr_t> Handle;
  Api ApiId;
  uint64_t Id;
  int32_t Rank, Size;
  std::atomic<uint64_t> CollSeq;
  std::atomic<uint64_t> Children; ///< Communicators derived from this one.
  std::atomic<uint64_t> AnySourceSeq;
  std::atomic<uint64_t> *SendSeq; ///< Per peer, Size entries.
  std::atomic<uint64_t> *RecvSeq;
  std::atomic<uint32_t> Live;
  std::atomic<uint32_t> AbortIssued;
  std::atomic<uint32_t> AsyncErrorSeen;
};

/// Lock-free lookup by library handle, in the table.
CommState *findCommInTable(Api ApiId, uintptr_t Handle);
/// This thread's last communicator found: hooks in a loop pass the same one
/// over and over. A handle keeps its table slot for good (slots are never
/// emptied), so the slot's Live flag says whether the state still stands.
struct CommMemo {
  uintptr_t Handle = 0;
  Api ApiId = Api::None;
  CommState *State = nullptr;
};
extern DLRT_TLS CommMemo LastComm;
/// Lookup by library handle: the live state, or null.
inline CommState *findComm(Api ApiId, uintptr_t Handle) {
  const CommMemo &M = LastComm;
  if (DLRT_LIKELY(Handle == M.Handle && ApiId == M.ApiId && M.State &&
                  M.State->Live.load(std::memory_order_relaxed)))
    return M.State;
  CommState *C = findCommInTable(ApiId, Handle);
  if (C)
    LastComm = CommMemo{Handle, ApiId, C};
  return C;
}
/// Registers (or re-registers, if the handle was reused) a communicator.
CommState *addComm(Api ApiId, uintptr_t Handle, uint64_t Id, int Rank,
                   int Size);
void dropComm(CommState *Comm);
/// An id for a communicator first met in a call (not at its creation):
/// ordinal of such communicators in this process, the same on every rank
/// that meets them in the same order.
uint64_t adoptedCommId(Api ApiId);
/// Appends a CommCreate record.
void recordCommCreate(CommState *Comm, OpCode Via, uint64_t ParentId, int Color,
                      const CallSite &Site, int Result);
/// Calls Fn for every live communicator.
void forEachComm(void (*Fn)(CommState *, void *), void *Arg);

// ---- Operations
// ------------------------------------------------------------------

struct OpDesc {
  OpCode Op = OpCode::None;
  CommState *Comm = nullptr;
  uint64_t Seq = 0;
  uint64_t Count = 0;
  int32_t DataType = -1;
  int32_t RedOp = -1;
  int32_t Peer = kNoPeer;
  int32_t Tag = 0;
  uint32_t Group = 0;
  uint64_t Aux = 0;
};

struct OpHandle {
  TraceRecord *Rec = nullptr;
  uint64_t Slot = 0;
  int32_t Pending = -1;
  uint64_t StartNs = 0;
  explicit operator bool() const { return Rec != nullptr; }
};

/// beginOp, endOpBlocking and endOpIssued: inline in OpRecord.h.
/// An NCCL call returned: track completion with a CUDA event on Stream
/// (or, inside a group, once the outermost group ends).
void endOpOnStream(OpHandle &H, int Result, bool Failed, void *Stream,
                   bool InGroup);
/// The outermost ncclGroupEnd of this thread returned Result.
void ncclGroupEnded(int Result);
/// Marks a record completed (MPI request completion).
void markCompleted(TraceWriter &T, uint64_t Slot);
/// A host sync returned: the operations it waited for are done now, so
/// their events are looked at at once instead of at the watchdog's next
/// pass (by then the program may have destroyed the communicator or the
/// context, and the completion could no longer be observed).
void settleAwaitedEvents();

/// Host synchronizations: counted per call-site, watched while blocked.
struct SyncHandle {
  int32_t Pending = -1;
  uint64_t StartNs = 0;
  OpCode Op = OpCode::None;
  PackedFrame Site = 0;
};
SyncHandle beginSync(TraceWriter &T, OpCode Op, const CallSite &Site);
void endSync(TraceWriter &T, SyncHandle &H);
/// A blocking call with no record of its own (communicator set-up, group
/// end): watched while blocked, not counted.
SyncHandle beginWait(OpCode Op, const CallSite &Site,
                     CommState *Comm = nullptr);
void endWait(SyncHandle &H);
/// Appends an AsyncError record for Comm (once per communicator).
void recordAsyncError(CommState *Comm, int Error);

/// What the watchdog calls to abort a communicator of an API.
using AbortHandler = void (*)(CommState *Comm);
void setAbortHandler(Api ApiId, AbortHandler Handler);
/// With DISTLINT_RT_ABORT=1: aborts Comm, or when the blocked call has none
/// (MPI_Wait*, MPI_Finalize, a host sync), what ends the job for its API.
void abortJobOf(Api ApiId, CommState *Comm);

/// Per-thread NCCL group nesting, maintained by the NCCL hooks.
extern DLRT_TLS int NcclGroupDepth;
extern DLRT_TLS uint32_t NcclGroupOrdinal;
inline int &ncclGroupDepth() { return NcclGroupDepth; }
inline uint32_t &ncclGroupOrdinal() { return NcclGroupOrdinal; }

// ---- Inline fast path
// ---------------------------------------------------------------

extern std::atomic<TraceWriter *> CurrentTrace;
inline TraceWriter *traceIfOpen() {
  return CurrentTrace.load(std::memory_order_acquire);
}
inline TraceWriter *trace() {
  if (TraceWriter *T = traceIfOpen(); DLRT_LIKELY(T))
    return T;
  return openTrace();
}

} // namespace rt
} // namespace distlint
