//===- OpRecord.h - A call's record and pending entry, inline ---*- C++ -*-===//
//
// The part of the record sequence every intercepted call runs (beginOp, the
// real call, endOp*), inline in the hooks: called out of line it cost a
// third of the recorder's time (each hook's constant operation, category and
// tracking flag fold away, and nothing is passed through memory). The slow
// paths (a full block of pending entries, a shared ring head) stay in
// Pending.cpp and TraceWriter.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "PendingTable.h"
#include "Runtime.h"

#include <sys/syscall.h>
#include <unistd.h>

#define DLRT_ALWAYS_INLINE inline __attribute__((always_inline))

namespace distlint {
namespace rt {

/// This thread's block of pending entries (-1: not asked yet; -2: none
/// left), the entry of its last operation, and its kernel thread id.
extern DLRT_TLS int32_t MyBlock;
extern DLRT_TLS uint32_t MyHint;
extern DLRT_TLS uint32_t MyTid;

/// Any free entry: the thread's block, then the shared region; -1 when the
/// table is full (the operation goes untracked).
int32_t claimPendingSlow(uint64_t Slot, uint64_t StartNs, CommState *Comm,
                         OpCode Op, PackedFrame Site);

DLRT_ALWAYS_INLINE void fillPending(PendingEntry &E, uint64_t Slot,
                                    uint64_t StartNs, CommState *Comm,
                                    OpCode Op, PackedFrame Site) {
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

/// An entry for an operation: the thread's last one is usually free again
/// (the call returned), so that one is tried first.
DLRT_ALWAYS_INLINE int32_t claimPending(uint64_t Slot, uint64_t StartNs,
                                        CommState *Comm, OpCode Op,
                                        PackedFrame Site) {
  if (DLRT_LIKELY(MyBlock >= 0)) {
    uint32_t Index = uint32_t(MyBlock) * kBlockEntries + MyHint;
    PendingEntry &E = Pending[Index];
    if (DLRT_LIKELY(E.State.load(std::memory_order_acquire) == PendingFree)) {
      fillPending(E, Slot, StartNs, Comm, Op, Site);
      return int32_t(Index);
    }
  }
  return claimPendingSlow(Slot, StartNs, Comm, Op, Site);
}

DLRT_ALWAYS_INLINE void freeEntry(int32_t Index) {
  if (Index >= 0)
    Pending[Index].State.store(PendingFree, std::memory_order_release);
}

/// The owner sets its own bits: a plain read-modify-write.
DLRT_ALWAYS_INLINE void ownerSets(TraceRecord *R, uint32_t Bits) {
  R->State.store(uint16_t(R->State.load(std::memory_order_relaxed) | Bits),
                 std::memory_order_release);
}

DLRT_ALWAYS_INLINE uint32_t threadTid() {
  if (DLRT_UNLIKELY(!MyTid))
    MyTid = uint32_t(syscall(SYS_gettid));
  return MyTid;
}

/// Appends the op's record; with Track, the watchdog watches it until
/// one of the end* calls below.
DLRT_ALWAYS_INLINE OpHandle beginOp(TraceWriter &T, const OpDesc &D,
                                    const CallSite &Site, bool Track) {
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
  R->Tid = threadTid();
  R->Tag = D.Tag;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    R->Frames[I] = Site.Frames[I];
  T.commit(R, H.Slot);
  H.Rec = R;
  if (Track)
    H.Pending = claimPending(H.Slot, H.StartNs, D.Comm, D.Op, Site.Frames[0]);
  return H;
}

DLRT_ALWAYS_INLINE void releasePending(OpHandle &H) {
  freeEntry(H.Pending);
  H.Pending = -1;
}

/// A blocking call returned: completed unless Failed (EndNs stays 0).
DLRT_ALWAYS_INLINE void endOpBlocking(OpHandle &H, int Result, bool Failed) {
  H.Rec->Result = Result;
  ownerSets(H.Rec, StateReturned | (Failed ? StateFailed : StateCompleted));
  releasePending(H);
}

/// A non-blocking call returned; completion comes later (markCompleted).
DLRT_ALWAYS_INLINE void endOpIssued(OpHandle &H, int Result, bool Failed) {
  H.Rec->Result = Result;
  ownerSets(H.Rec, StateReturned | (Failed ? uint32_t(StateFailed) : 0u));
  releasePending(H);
}

} // namespace rt
} // namespace distlint
