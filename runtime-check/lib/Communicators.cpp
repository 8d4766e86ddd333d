//===- Communicators.cpp - The table of known communicators --------------===//
//
// Communicators by handle (an open-addressing table the hooks read without a
// lock), and the trace record of each creation.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "Support.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

namespace distlint {
namespace rt {

namespace {
constexpr unsigned kCommEntries = 1024;
CommState Comms[kCommEntries];
std::mutex CommMu;
/// Per-peer counts of states replaced by a re-registration (under CommMu).
struct RetiredCountArrays {
  std::atomic<uint64_t> *Send, *Recv;
  RetiredCountArrays *Next;
};
RetiredCountArrays *RetiredCounts = nullptr;
std::atomic<uint64_t> AdoptedCount[kNumApis];

inline unsigned commSlot(uintptr_t Handle) {
  return unsigned((Handle * 0x9E3779B97F4A7C15ull) >> 54) & (kCommEntries - 1);
}
} // namespace

DLRT_TLS CommMemo LastComm;

CommState *findCommInTable(Api ApiId, uintptr_t Handle) {
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
  // stay allocated (another thread might still read them), kept on a list.
  if (Target->SendSeq || Target->RecvSeq)
    RetiredCounts =
        new RetiredCountArrays{Target->SendSeq, Target->RecvSeq, RetiredCounts};
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

} // namespace rt
} // namespace distlint
