//===- LiveCompare.cpp - Compare the ranks' traces while the job runs ---===//
//
// Runs on the watchdog thread only, so its state needs no locks. Each poll
// reads the records committed since the last one, in this rank's trace and
// in the mapped traces of the other ranks, and files every collective under
// (communicator, sequence number). A record is copied out and its commit
// word checked again afterwards, so a slot the ring reused meanwhile is
// dropped, never half-read. Reading the traces: LiveSources.cpp.
//
//===----------------------------------------------------------------------===//
#include "LiveCompare.h"
#include "LiveSources.h"
#include "PythonFrames.h"
#include "Runtime.h"
#include "Support.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace distlint {
namespace rt {

using namespace live;

namespace {

constexpr uint64_t kRescanNs = 250000000ull;         // Look for new traces.
constexpr uint64_t kSettledRescanNs = 2000000000ull; // Once all ranks are seen.
constexpr uint64_t kKeepNs = 10000000000ull; // Agreed entries kept this long.
constexpr size_t kMaxEntries = 1u << 16;
/// Two ranks each blocked this long (seen by this watchdog) in a collective
/// the other has not reached, on different communicators: a deadlock.
constexpr uint64_t kCrossWaitNs = 500000000ull;

struct Entry {
  Snapshot First;
  size_t FirstSource = 0;
  uint32_t Seen = 0; ///< Sources that issued it.
  uint64_t SeenBits = 0;
};

struct State {
  live::Sources Sources; ///< [0] is this rank.
  std::map<std::pair<uint64_t, uint64_t>, Entry> Entries;
  uint64_t NextScanNs = 0, NextSweepNs = 0;
  bool Reported = false;
  std::string Dir;
};

State &state() {
  static State *S =
      new State(); // Never destroyed: the watchdog may outlive exit.
  return *S;
}

/// "ProcessGroup::allreduce(count=1, float32, shape [1]) at train.py:25 in
/// main" for the one-line reports.
void describeCall(const TraceHeader &H, const Snapshot &R, char *Buf,
                  size_t Size) {
  int N = std::snprintf(Buf, Size, "%s(count=%llu", opInfo(R.Op).Name,
                        (unsigned long long)R.Count);
  if (Api(R.ApiId) == Api::C10d && N < int(Size)) {
    if (const char *Type = c10dScalarTypeName(R.DataType))
      N += std::snprintf(Buf + N, Size - size_t(N), ", %s", Type);
    char Shape[128];
    if (R.DataType >= 0 && formatShapeCode(R.Aux, Shape, sizeof(Shape)) &&
        N < int(Size))
      N += std::snprintf(Buf + N, Size - size_t(N), ", %s", Shape);
  }
  char Where[512];
  describeFrame(H, R.Frame, Where, sizeof(Where));
  if (N < int(Size))
    std::snprintf(Buf + N, Size - size_t(N), ") at %s", Where);
}

bool isEnd(uint32_t Kind, const Snapshot &R) {
  if (Kind == uint32_t(RecordKind::ProcessExit))
    return true;
  return Kind == uint32_t(RecordKind::Op) &&
         OpCode(R.Op) == OpCode::MpiFinalize;
}

/// Field in which two collectives at the same position differ, or null.
const char *differs(const Snapshot &A, const Snapshot &B) {
  if (A.Op != B.Op)
    return "operation";
  if (A.Count != B.Count)
    return "count";
  if (A.DataType != B.DataType)
    return "datatype";
  if (A.RedOp != B.RedOp)
    return "reduction";
  if (opIsRooted(OpCode(A.Op)) && A.Peer != B.Peer)
    return "root";
  if (Api(A.ApiId) == Api::C10d && A.Aux != B.Aux)
    return "tensor shape";
  return nullptr;
}

CommState *commById(uint64_t Id) {
  struct Find {
    uint64_t Id;
    CommState *Found;
  } F{Id, nullptr};
  forEachComm(
      [](CommState *C, void *Arg) {
        auto *F = static_cast<Find *>(Arg);
        if (C->Id == F->Id && !F->Found)
          F->Found = C;
      },
      &F);
  return F.Found;
}

/// "; rank 2 agrees with this rank, rank 3 with rank 0": the other ranks
/// whose trace already holds collective Seq of Comm, by the side it matches
/// (the newest records of their rings, read now).
std::string agreeingRanks(const State &S, const Source &Other, uint64_t Comm,
                          uint64_t Seq, const Snapshot &Mine,
                          const Snapshot &Theirs) {
  constexpr uint64_t kLookBack = 512;
  std::string Mates, OtherMates;
  for (const auto &Src : S.Sources) {
    if (Src->Own || Src.get() == &Other)
      continue;
    uint64_t Head = Src->Header->Head.load(std::memory_order_acquire);
    uint64_t Depth =
        std::min<uint64_t>(Head, std::min(kLookBack, Src->Mask + 1));
    for (uint64_t Slot = Head; Slot > Head - Depth; --Slot) {
      Snapshot R;
      uint32_t Kind;
      if (!copyRecord(Src->Ring[(Slot - 1) & Src->Mask], Slot - 1, R, Kind) ||
          Kind != uint32_t(RecordKind::Op) || R.CommId != Comm ||
          R.Seq != Seq || opInfo(R.Op).Category != OpCategory::Collective)
        continue;
      std::string *To = !differs(Mine, R)     ? &Mates
                        : !differs(Theirs, R) ? &OtherMates
                                              : nullptr;
      if (To)
        *To += (To->empty() ? "" : ", ") + std::to_string(Src->rank());
      break;
    }
  }
  std::string Text;
  if (!Mates.empty())
    Text += "; rank(s) " + Mates + " agree with this rank";
  if (!OtherMates.empty())
    Text += "; rank(s) " + OtherMates + " agree with rank " +
            std::to_string(Other.rank());
  return Text;
}

/// Writes the LiveMismatch record and the line; aborts with
/// DISTLINT_RT_ABORT=1.
void report(State &S, TraceWriter &Own, MismatchKind Kind, uint64_t Comm,
            uint64_t Seq, const Snapshot &Mine, const Source &Other,
            const Snapshot &Theirs, const char *Field, uint64_t Now) {
  if (S.Reported)
    return;
  S.Reported = true;
  uint64_t Slot;
  TraceRecord *R = Own.claim(Slot);
  std::memset(static_cast<void *>(R), 0, sizeof(*R));
  R->Kind = uint32_t(RecordKind::LiveMismatch);
  R->Seq = Seq;
  R->CommId = Comm;
  R->Count = Mine.Count;
  // When the divergence became visible, and when it was reported.
  R->StartNs = Mine.StartNs > Theirs.StartNs ? Mine.StartNs : Theirs.StartNs;
  R->EndNs.store(Now, std::memory_order_relaxed);
  R->Aux = Theirs.Slot;
  R->ApiId = Mine.ApiId;
  R->Op = Mine.Op;
  R->DataType = Mine.DataType;
  R->RedOp = Mine.RedOp;
  R->Peer = Other.rank();
  R->CommRank = Mine.CommRank;
  R->CommSize = Mine.CommSize;
  R->Tag = int32_t(Kind);
  R->Tid = uint32_t(syscall(SYS_gettid));
  R->Frames[0] = Mine.Frame;
  Own.commit(R, Slot);
  Own.header().MismatchCount.fetch_add(1, std::memory_order_release);
  const TraceHeader &OwnH = Own.header();
  int Rank = OwnH.Rank.load(std::memory_order_relaxed);
  unsigned long long Short = (Comm >> 32) ^ (Comm & 0xffffffffull);
  char MineText[640], TheirsText[640];
  describeCall(OwnH, Mine, MineText, sizeof(MineText));
  describeCall(*Other.Header, Theirs, TheirsText, sizeof(TheirsText));
  if (Kind == MismatchKind::Fingerprint)
    logLine("rank %d: divergence on communicator %08llx at collective #%llu "
            "(%s differs): this rank issued %s; rank %d issued %s%s",
            Rank, Short, (unsigned long long)Seq, Field, MineText, Other.rank(),
            TheirsText,
            agreeingRanks(S, Other, Comm, Seq, Mine, Theirs).c_str());
  else if (Kind == MismatchKind::CrossWait)
    logLine("rank %d: deadlock across communicators: this rank waits in %s "
            "(communicator %08llx, collective #%llu), which rank %d has not "
            "reached; rank %d waits in %s (communicator %08llx, collective "
            "#%llu), which this rank has not reached",
            Rank, MineText, Short, (unsigned long long)Seq, Other.rank(),
            Other.rank(), TheirsText,
            (unsigned long long)((Theirs.CommId >> 32) ^
                                 (Theirs.CommId & 0xffffffffull)),
            (unsigned long long)Theirs.Seq);
  else {
    // Field is set when this rank is the one that moved on.
    const Snapshot &Mover = Field ? Mine : Theirs;
    const TraceHeader &MoverH = Field ? OwnH : *Other.Header;
    char Where[512];
    describeFrame(MoverH, Mover.Frame, Where, sizeof(Where));
    logLine("rank %d: divergence on communicator %08llx at collective #%llu: "
            "rank %d issued %s; rank %d moved on to %s at %s without issuing "
            "it",
            Rank, Short, (unsigned long long)Seq, Field ? Other.rank() : Rank,
            Field ? TheirsText : MineText, Field ? Rank : Other.rank(),
            Mover.Op ? opInfo(Mover.Op).Name : "exit", Where);
  }
  if (config().AbortOnHang) {
    logLine("rank %d: ending the job (DISTLINT_RT_ABORT=1)", Rank);
    abortJobOf(Api(Mine.ApiId ? Mine.ApiId : Theirs.ApiId), commById(Comm));
  }
}

void file(State &S, TraceWriter &Own, size_t Index, const Snapshot &R,
          uint64_t Now) {
  Source &Src = *S.Sources[Index];
  uint64_t &Last = Src.LastSeq[R.CommId];
  if (R.Seq > Last)
    Last = R.Seq;
  auto Key = std::make_pair(R.CommId, R.Seq);
  auto It = S.Entries.find(Key);
  if (It == S.Entries.end()) {
    if (S.Entries.size() >= kMaxEntries)
      S.Entries.erase(S.Entries.begin());
    Entry E;
    E.First = R;
    E.FirstSource = Index;
    E.Seen = 1;
    E.SeenBits = Index < 64 ? uint64_t(1) << Index : 0;
    S.Entries.emplace(Key, E);
    return;
  }
  Entry &E = It->second;
  ++E.Seen;
  if (Index < 64)
    E.SeenBits |= uint64_t(1) << Index;
  if (const char *Field = differs(E.First, R)) {
    if (Index == 0)
      report(S, Own, MismatchKind::Fingerprint, R.CommId, R.Seq, R,
             *S.Sources[E.FirstSource], E.First, Field, Now);
    else if (E.FirstSource == 0)
      report(S, Own, MismatchKind::Fingerprint, R.CommId, R.Seq, E.First, Src,
             R, Field, Now);
  }
  if (R.CommSize > 0 && E.Seen >= uint32_t(R.CommSize))
    S.Entries.erase(It);
}

/// Reads what a source committed since the last poll.
void drain(State &S, TraceWriter &Own, size_t Index, uint64_t Now) {
  Source &Src = *S.Sources[Index];
  uint64_t Head = Src.Header->Head.load(std::memory_order_acquire);
  uint64_t Capacity = Src.Mask + 1;
  if (Head > Capacity && Src.Cursor < Head - Capacity)
    Src.Cursor = Head - Capacity; // The ring overwrote what we had not read.
  for (; Src.Cursor < Head; ++Src.Cursor) {
    Snapshot R;
    uint32_t Kind = 0;
    const TraceRecord &Raw = Src.Ring[Src.Cursor & Src.Mask];
    if (!copyRecord(Raw, Src.Cursor, R, Kind)) {
      if (Raw.Commit.load(std::memory_order_acquire) == 0 &&
          Head - Src.Cursor < 64)
        break; // Claimed, not yet committed: look again next poll.
      continue;
    }
    Src.Newest = R;
    Src.NewestKind = Kind;
    Src.NewestSinceNs = Now;
    Src.HasNewest = true;
    if (Kind == uint32_t(RecordKind::Op)) {
      Src.Multithreaded |= Src.IssuerTid && Src.IssuerTid != R.Tid;
      Src.IssuerTid = R.Tid;
    }
    if (isEnd(Kind, R)) {
      if (!Src.Ended) {
        Src.Ended = true;
        Src.EndRec = R;
      }
      continue;
    }
    if (Kind == uint32_t(RecordKind::CommCreate) && R.CommId) {
      Src.LastSeq.emplace(R.CommId, 0);
      continue;
    }
    if (Kind != uint32_t(RecordKind::Op) || !R.CommId)
      continue;
    OpCategory Cat = opInfo(R.Op).Category;
    if (Cat == OpCategory::CommEnd) {
      Src.CommEnded.emplace(R.CommId, R);
      continue;
    }
    Src.LastSeq.emplace(R.CommId, 0);
    if (Cat == OpCategory::Collective && R.Seq > 0)
      file(S, Own, Index, R, Now);
  }
}

/// A member that ended without issuing a collective another member issued.
void findMovedOn(State &S, TraceWriter &Own, uint64_t Now) {
  for (auto &[Key, E] : S.Entries) {
    for (size_t I = 0; I < S.Sources.size(); ++I) {
      Source &Src = *S.Sources[I];
      if (I == E.FirstSource || (I < 64 && (E.SeenBits >> I) & 1) ||
          !Src.member(Key.first))
        continue;
      if (Src.LastSeq[Key.first] >= Key.second)
        continue;
      auto Ended = Src.CommEnded.find(Key.first);
      const Snapshot *End = Ended != Src.CommEnded.end() ? &Ended->second
                            : Src.Ended                  ? &Src.EndRec
                                                         : nullptr;
      if (!End)
        continue;
      if (I == 0)
        report(S, Own, MismatchKind::MovedOn, Key.first, Key.second, *End,
               *S.Sources[E.FirstSource], E.First, "moved on", Now);
      else if (E.FirstSource == 0)
        report(S, Own, MismatchKind::MovedOn, Key.first, Key.second, E.First,
               Src, *End, nullptr, Now);
      return;
    }
  }
}

/// The collective a source is blocked in: its newest record is a collective
/// call that has not returned, or a wait (MPI_Wait*, Work::wait) that has not
/// returned for a collective not yet completed.
bool blockedIn(const Source &Src, Snapshot &Op) {
  if (!Src.HasNewest || Src.Multithreaded ||
      Src.NewestKind != uint32_t(RecordKind::Op) ||
      Src.Header->Head.load(std::memory_order_acquire) != Src.Newest.Slot + 1)
    return false;
  auto NotYet = [&](uint64_t Slot, uint16_t Bit) {
    const TraceRecord &R = Src.Ring[Slot & Src.Mask];
    uint16_t St = R.State.load(std::memory_order_acquire) |
                  R.Progress.load(std::memory_order_acquire);
    return R.Commit.load(std::memory_order_acquire) == Slot + 1 && !(St & Bit);
  };
  const Snapshot &N = Src.Newest;
  OpCategory Cat = opInfo(N.Op).Category;
  if (Cat == OpCategory::Collective) {
    Op = N;
    return Op.CommId && Op.Seq && NotYet(N.Slot, StateReturned);
  }
  if (Cat != OpCategory::Wait || !N.Aux || !NotYet(N.Slot, StateReturned))
    return false;
  uint64_t Target = N.Aux - 1;
  uint32_t Kind = 0;
  if (Target >= N.Slot || N.Slot - Target > Src.Mask ||
      !copyRecord(Src.Ring[Target & Src.Mask], Target, Op, Kind))
    return false;
  return Kind == uint32_t(RecordKind::Op) &&
         opInfo(Op.Op).Category == OpCategory::Collective && Op.CommId &&
         Op.Seq && NotYet(Target, StateCompleted);
}

/// Whether collective Op misses exactly one member, Src, which has not
/// reached it: everyone else is in it, so it waits for Src.
bool waitsOnlyFor(const State &S, const Source &Src, const Snapshot &Op) {
  auto Last = Src.LastSeq.find(Op.CommId);
  if (Last == Src.LastSeq.end() || Last->second >= Op.Seq || Op.CommSize <= 1)
    return false;
  auto E = S.Entries.find(std::make_pair(Op.CommId, Op.Seq));
  return E != S.Entries.end() && E->second.Seen + 1 == uint32_t(Op.CommSize);
}

/// This rank and another each blocked in a collective that waits only for
/// the other, on different communicators (each in its own order): neither
/// can return. Fingerprints at each sequence number agree, so only this
/// sees it before the timeout. (An NCCL rank waits in a host sync, which
/// leaves no record: not seen here.)
void findCrossWait(State &S, TraceWriter &Own, uint64_t Now) {
  Source &Me = *S.Sources[0];
  Snapshot Mine;
  if (!blockedIn(Me, Mine) || elapsedNs(Now, Me.NewestSinceNs) < kCrossWaitNs)
    return;
  for (size_t I = 1; I < S.Sources.size(); ++I) {
    Source &Peer = *S.Sources[I];
    Snapshot Theirs;
    if (!blockedIn(Peer, Theirs) ||
        elapsedNs(Now, Peer.NewestSinceNs) < kCrossWaitNs ||
        Theirs.CommId == Mine.CommId)
      continue;
    if (waitsOnlyFor(S, Peer, Mine) && waitsOnlyFor(S, Me, Theirs)) {
      report(S, Own, MismatchKind::CrossWait, Mine.CommId, Mine.Seq, Mine, Peer,
             Theirs, nullptr, Now);
      return;
    }
  }
}

/// Drops entries every followed member has passed long ago.
void sweep(State &S, uint64_t Now) {
  for (auto It = S.Entries.begin(); It != S.Entries.end();) {
    bool Passed = elapsedNs(Now, It->second.First.StartNs) > kKeepNs;
    for (size_t I = 0; Passed && I < S.Sources.size(); ++I) {
      Source &Src = *S.Sources[I];
      auto L = Src.LastSeq.find(It->first.first);
      Passed = L == Src.LastSeq.end() || L->second >= It->first.second;
    }
    It = Passed ? S.Entries.erase(It) : std::next(It);
  }
}

} // namespace

void liveCompare(TraceWriter &Own, uint64_t Now) {
  State &S = state();
  if (S.Reported || !Own.header().RunId)
    return; // Without a run id, other files may be stale runs: no live view.
  if (S.Sources.empty()) {
    auto Self = std::make_unique<Source>();
    Self->Own = true;
    Self->Pid = Own.header().Pid;
    Self->Header = &Own.header();
    Self->Ring = Own.ring();
    Self->Mask = Own.header().Capacity - 1;
    S.Sources.push_back(std::move(Self));
    S.Dir = config().Dir;
  }
  if (Now >= S.NextScanNs) {
    scanDirectory(S.Dir, S.Sources, Own);
    int World = Own.header().WorldSize;
    bool AllSeen =
        World > 0 &&
        S.Sources.size() >= size_t(World < int(kLiveAllPairsLimit) ? World : 3);
    S.NextScanNs = Now + (AllSeen ? kSettledRescanNs : kRescanNs);
  }
  if (S.Sources.size() < 2)
    return;
  for (size_t I = 0; I < S.Sources.size() && !S.Reported; ++I)
    drain(S, Own, I, Now);
  if (!S.Reported)
    findMovedOn(S, Own, Now);
  if (!S.Reported)
    findCrossWait(S, Own, Now);
  if (Now >= S.NextSweepNs) {
    sweep(S, Now);
    S.NextSweepNs = Now + 1000000000ull;
  }
}

} // namespace rt
} // namespace distlint
