//===- StackWalker.cpp - Find the user's call-site cheaply
//------------------===//
//
// How the fast walk stays exact (x86-64):
//  * Per return address (pc) we learn from full DWARF unwinds how the frame
//    of the function at that pc relates to its callee's: either it keeps a
//    frame pointer there (CFA = rbp + 16) or its frame has a fixed size there
//    (CFA = callee CFA + delta). A fact is used only after it was seen twice
//    and never contradicted; a contradiction marks the pc unstable for good.
//  * Where a fixed-frame function leaves rbp alone we can keep following
//    frame pointers above it; that is learned the same way.
//  * Each step must land on a return address that a full unwind saw as a
//    caller of the current pc (up to eight remembered per pc), and inside the
//    thread's stack. Anything else falls back to the full unwind, which also
//    teaches the walker the new path.
// So a call-site costs a few table lookups once the paths are known.
//
//===----------------------------------------------------------------------===//
#include "StackWalker.h"
#include "ModuleRegistry.h"
#include "PythonFrames.h"
#include "Support.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unwind.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace distlint {
namespace rt {

namespace {

// ---- Return-address cache
// ----------------------------------------------------

enum : uint64_t {
  FactReady = 1u << 0,
  FactSkip = 1u << 1,
  FactOutermost = 1u << 2,
};
enum StepKind : uint64_t {
  KindUnknown = 0,
  KindFramePointer = 1,
  KindFixed = 2,
  KindUnstable = 3
};
enum RbpKind : uint64_t {
  RbpUnknown = 0,
  RbpPreserved = 1,
  RbpClobbered = 2,
  RbpUnstable = 3
};

constexpr unsigned kKindShift = 3, kKindConfShift = 5, kRbpShift = 7,
                   kRbpConfShift = 9;
constexpr unsigned kManyCallersBit = 11, kDeltaShift = 32;
constexpr unsigned kMaxCallers = 8;
constexpr unsigned kCacheEntries = 1u << 14;
constexpr unsigned kMaxDepth = 64;

struct PcEntry {
  std::atomic<uintptr_t> Pc;
  std::atomic<uint64_t> Frame;
  std::atomic<uint64_t> Facts;
  std::atomic<uintptr_t> Callers[kMaxCallers];
};

PcEntry *Cache;
std::mutex SlowMu; // Serializes learning (the slow path).
std::atomic<uint64_t> SlowWalkCount{0};
DLRT_TLS uint64_t ThreadFastWalks;

uint64_t field(uint64_t Facts, unsigned Shift) { return (Facts >> Shift) & 3; }
uint64_t withField(uint64_t Facts, unsigned Shift, uint64_t V) {
  return (Facts & ~(uint64_t(3) << Shift)) | (V << Shift);
}
int32_t delta(uint64_t Facts) {
  return int32_t(uint32_t(Facts >> kDeltaShift));
}

PcEntry *cacheTable() {
  PcEntry *T = __atomic_load_n(&Cache, __ATOMIC_ACQUIRE);
  if (DLRT_LIKELY(T))
    return T;
  std::lock_guard<std::mutex> Lock(SlowMu);
  if (!Cache) {
    void *Mem =
        mmap(nullptr, sizeof(PcEntry) * kCacheEntries, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Mem == MAP_FAILED)
      return nullptr;
    __atomic_store_n(&Cache, static_cast<PcEntry *>(Mem), __ATOMIC_RELEASE);
  }
  return Cache;
}

inline unsigned slotOf(uintptr_t Pc) {
  return unsigned((Pc * 0x9E3779B97F4A7C15ull) >> 50) & (kCacheEntries - 1);
}

/// Finds a ready entry for Pc, or null.
inline const PcEntry *lookup(PcEntry *T, uintptr_t Pc) {
  unsigned S = slotOf(Pc);
  for (unsigned Probe = 0; Probe < 16; ++Probe) {
    const PcEntry &E = T[(S + Probe) & (kCacheEntries - 1)];
    uintptr_t Key = E.Pc.load(std::memory_order_acquire);
    if (Key == Pc)
      return (E.Facts.load(std::memory_order_acquire) & FactReady) ? &E
                                                                   : nullptr;
    if (Key == 0)
      return nullptr;
  }
  return nullptr;
}

/// Finds or creates the entry for Pc (slow path, under SlowMu).
PcEntry *lookupOrInsert(PcEntry *T, uintptr_t Pc) {
  unsigned S = slotOf(Pc);
  for (unsigned Probe = 0; Probe < 16; ++Probe) {
    PcEntry &E = T[(S + Probe) & (kCacheEntries - 1)];
    uintptr_t Key = E.Pc.load(std::memory_order_acquire);
    if (Key == Pc)
      return &E;
    if (Key == 0) {
      const ModuleRange *M = findModule(Pc, /*MayRefresh=*/true);
      uint64_t Facts = FactReady;
      PackedFrame Frame = 0;
      if (M) {
        Frame = packFrame(M->Index, Pc - 1 - M->Bias);
        if (M->Skip)
          Facts |= FactSkip;
      } else {
        Facts |= FactSkip; // Code outside any module (JIT): not a user frame.
      }
      E.Frame.store(Frame, std::memory_order_relaxed);
      E.Facts.store(Facts, std::memory_order_relaxed);
      E.Pc.store(Pc, std::memory_order_release);
      return &E;
    }
  }
  return nullptr; // Neighbourhood full: this pc stays on the slow path.
}

// ---- Thread stack bounds
// -----------------------------------------------------

DLRT_TLS uintptr_t StackHigh;

uintptr_t stackHigh() {
  if (DLRT_LIKELY(StackHigh))
    return StackHigh;
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    void *Addr;
    size_t Size;
    if (pthread_attr_getstack(&Attr, &Addr, &Size) == 0)
      StackHigh = uintptr_t(Addr) + Size;
    pthread_attr_destroy(&Attr);
  }
  if (!StackHigh)
    StackHigh = ~uintptr_t(0) >> 1;
  return StackHigh;
}

// ---- Slow path
// ---------------------------------------------------------------

struct RawFrame {
  uintptr_t Ip, Cfa, Rbp;
};

struct UnwindState {
  RawFrame Frames[kMaxDepth + 8];
  unsigned Count = 0;
  bool Complete = false; ///< Reached the end of the stack.
};

_Unwind_Reason_Code collectFrame(_Unwind_Context *Ctx, void *Arg) {
  auto &State = *static_cast<UnwindState *>(Arg);
  if (State.Count == sizeof(State.Frames) / sizeof(State.Frames[0]))
    return _URC_END_OF_STACK;
  int BeforeInsn = 0;
  uintptr_t Ip = _Unwind_GetIPInfo(Ctx, &BeforeInsn);
  RawFrame &F = State.Frames[State.Count++];
  // Signal frames: IP is the faulting instruction, not a return address.
  F.Ip = BeforeInsn ? 0 : Ip;
  F.Cfa = _Unwind_GetCFA(Ctx);
#if defined(__x86_64__)
  F.Rbp = _Unwind_GetGR(Ctx, 6);
#else
  F.Rbp = 0;
#endif
  return _URC_NO_REASON;
}

__attribute__((noinline)) void unwindAll(UnwindState &State) {
  _Unwind_Reason_Code Code = _Unwind_Backtrace(collectFrame, &State);
  State.Complete = Code == _URC_END_OF_STACK &&
                   State.Count < sizeof(State.Frames) / sizeof(State.Frames[0]);
}

void learnKind(uint64_t &Facts, uint64_t Observed, int32_t Delta) {
  uint64_t Kind = field(Facts, kKindShift), Conf = field(Facts, kKindConfShift);
  if (Kind == KindUnstable)
    return;
  if (Kind == KindUnknown) {
    Facts = withField(Facts, kKindShift, Observed);
    Facts = withField(Facts, kKindConfShift, 1);
    if (Observed == KindFixed)
      Facts =
          (Facts & 0xffffffffull) | (uint64_t(uint32_t(Delta)) << kDeltaShift);
    return;
  }
  if (Kind != Observed || (Kind == KindFixed && delta(Facts) != Delta)) {
    Facts = withField(Facts, kKindShift, KindUnstable);
    return;
  }
  Facts = withField(Facts, kKindConfShift, std::min<uint64_t>(Conf + 1, 3));
}

void learnRbp(uint64_t &Facts, uint64_t Observed) {
  uint64_t Kind = field(Facts, kRbpShift), Conf = field(Facts, kRbpConfShift);
  if (Kind == RbpUnstable)
    return;
  if (Kind == RbpUnknown) {
    Facts = withField(Facts, kRbpShift, Observed);
    Facts = withField(Facts, kRbpConfShift, 1);
    return;
  }
  if (Kind != Observed) {
    Facts = withField(Facts, kRbpShift, RbpUnstable);
    return;
  }
  Facts = withField(Facts, kRbpConfShift, std::min<uint64_t>(Conf + 1, 3));
}

void rememberCaller(PcEntry &E, uintptr_t Caller, uint64_t &Facts) {
  for (auto &Slot : E.Callers) {
    uintptr_t V = Slot.load(std::memory_order_relaxed);
    if (V == Caller)
      return;
    if (V == 0) {
      Slot.store(Caller, std::memory_order_release);
      return;
    }
  }
  Facts |= uint64_t(1) << kManyCallersBit;
}

/// Appends Frame to Out unless Out is full.
void addFrame(CallSite &Out, unsigned &Found, PackedFrame Frame) {
  if (Found < kRecordFrames)
    Out.Frames[Found++] = Frame;
}

} // namespace

void captureCallSiteSlow(void *HookFrame, CallSite &Out) {
  SlowWalkCount.fetch_add(1, std::memory_order_relaxed);
  Out = CallSite();
  UnwindState State;
  unwindAll(State);
  PcEntry *T = cacheTable();
  // libgcc reports, for the frame executing at Ip, the stack pointer of that
  // frame (its callee's CFA). So the frame whose value equals the hook's CFA
  // is the hook's caller: the first candidate for the user's frame.
  uintptr_t HookCfa = uintptr_t(HookFrame) + 16;
  unsigned First = 0;
  while (First < State.Count && State.Frames[First].Cfa != HookCfa)
    ++First;
  // Without a matching frame (other ABIs), start at the top: this library's
  // own frames are skipped like any other runtime library's.
  const bool HookFound = First != State.Count;
  if (!HookFound)
    First = 0;
  // The unwinder may end with a frame without an address; the one before
  // it is the outermost (_start, or the thread start routine).
  unsigned Count = State.Count;
  while (Count > 0 && State.Frames[Count - 1].Ip == 0)
    --Count;
  const bool Complete = State.Complete && Count > 0;
  std::lock_guard<std::mutex> Lock(SlowMu);
  unsigned Found = 0;
  for (unsigned K = First; K < Count; ++K) {
    const RawFrame &F = State.Frames[K];
    if (F.Ip == 0)
      break;
    PcEntry *E = T && HookFound ? lookupOrInsert(T, F.Ip) : nullptr;
    PackedFrame Frame = 0;
    bool Skip = true;
    if (E) {
      Frame = E->Frame.load(std::memory_order_relaxed);
      uint64_t Facts = E->Facts.load(std::memory_order_relaxed);
      Skip = Facts & FactSkip;
#if defined(__x86_64__)
      if (K + 1 < Count) {
        const RawFrame &Caller = State.Frames[K + 1];
        uintptr_t OwnCfa = Caller.Cfa; // This frame's CFA.
        bool UsesFp = F.Rbp == OwnCfa - 16;
        learnKind(Facts, UsesFp ? KindFramePointer : KindFixed,
                  int32_t(intptr_t(OwnCfa - F.Cfa)));
        learnRbp(Facts, Caller.Rbp == F.Rbp ? RbpPreserved : RbpClobbered);
        if (Caller.Ip)
          rememberCaller(*E, Caller.Ip, Facts);
      }
#endif
      if (K + 1 == Count && Complete)
        Facts |= FactOutermost;
      E->Facts.store(Facts, std::memory_order_release);
      // Start-up code (_start, thread start routines) is nobody's call-site.
      Skip = Skip || (Facts & FactOutermost);
    } else if (const ModuleRange *M = findModule(F.Ip, true)) {
      Frame = packFrame(M->Index, F.Ip - 1 - M->Bias);
      Skip = M->Skip || (K + 1 == Count && Complete);
    }
    if (!Skip && frameValid(Frame)) {
      addFrame(Out, Found, Frame);
      if (Found == kRecordFrames)
        break;
    }
  }
}

namespace {

#if defined(__x86_64__)
/// The memory a walk read, and what it found there. The walk is a function
/// of these words (and of facts that only ever get more cautious), so when
/// the next call sees the same words at the same places - the same call path
/// at the same stack depth, as in a training loop - the same call-site
/// follows without a single table lookup.
struct WalkMemo { // Plain data: it lives in thread-local storage.
  static constexpr unsigned kMaxWords = 34;
  uintptr_t HookFp;
  unsigned Words;
  uintptr_t Address[kMaxWords];
  uintptr_t Value[kMaxWords];
  PackedFrame Result[kRecordFrames];
};
DLRT_TLS WalkMemo LastWalk;

struct WalkTrail {
  unsigned Words = 0;
  bool Overflow = false;
  uintptr_t Address[WalkMemo::kMaxWords];
  uintptr_t Value[WalkMemo::kMaxWords];
  uintptr_t read(uintptr_t At) {
    uintptr_t V = *reinterpret_cast<uintptr_t *>(At);
    if (Words < WalkMemo::kMaxWords) {
      Address[Words] = At;
      Value[Words++] = V;
    } else {
      Overflow = true;
    }
    return V;
  }
};

bool memoHit(uintptr_t HookFp, CallSite &Out) {
  const WalkMemo &M = LastWalk;
  if (M.HookFp != HookFp || M.Words == 0)
    return false;
  for (unsigned I = 0; I < M.Words; ++I)
    if (*reinterpret_cast<uintptr_t *>(M.Address[I]) != M.Value[I])
      return false;
  for (unsigned I = 0; I < kRecordFrames; ++I)
    Out.Frames[I] = M.Result[I];
  return true;
}

/// Steps through learned frames only; false means "take the slow path".
bool fastWalk(uintptr_t HookFp, CallSite &Out, WalkTrail &Trail) {
  PcEntry *T = __atomic_load_n(&Cache, __ATOMIC_ACQUIRE);
  if (!T)
    return false;
  const uintptr_t High = stackHigh();
  uintptr_t Cfa = HookFp + 16;           // The hook's CFA.
  uintptr_t Rbp = Trail.read(HookFp);    // Caller's rbp.
  uintptr_t Pc = Trail.read(HookFp + 8); // Return address.
  bool RbpKnown = true;
  unsigned Found = 0;
  for (unsigned Depth = 0; Depth < kMaxDepth; ++Depth) {
    const PcEntry *E = lookup(T, Pc);
    if (!E)
      return false;
    uint64_t Facts = E->Facts.load(std::memory_order_acquire);
    if (!(Facts & (FactSkip | FactOutermost))) {
      PackedFrame Frame = E->Frame.load(std::memory_order_relaxed);
      if (frameValid(Frame)) {
        Out.Frames[Found++] = Frame;
        if (Found == kRecordFrames)
          return true;
      }
    }
    if (Facts & FactOutermost)
      return true;
    uint64_t Kind = field(Facts, kKindShift);
    if (field(Facts, kKindConfShift) < 2)
      return false;
    uintptr_t NextCfa;
    if (Kind == KindFramePointer) {
      if (!RbpKnown)
        return false;
      NextCfa = Rbp + 16;
    } else if (Kind == KindFixed) {
      NextCfa = Cfa + intptr_t(delta(Facts));
    } else {
      return false;
    }
    if (NextCfa <= Cfa || NextCfa > High)
      return false;
    if (Kind == KindFramePointer) {
      Rbp = Trail.read(NextCfa - 16);
    } else {
      uint64_t RbpFact = field(Facts, kRbpShift);
      RbpKnown = RbpKnown && RbpFact == RbpPreserved &&
                 field(Facts, kRbpConfShift) >= 2;
    }
    uintptr_t NextPc = Trail.read(NextCfa - 8);
    if (!(Facts & (uint64_t(1) << kManyCallersBit))) {
      bool Known = false;
      for (const auto &Slot : E->Callers)
        if (Slot.load(std::memory_order_relaxed) == NextPc) {
          Known = true;
          break;
        }
      if (!Known)
        return false;
    }
    Cfa = NextCfa;
    Pc = NextPc;
  }
  return true;
}
#endif

} // namespace

namespace {
void captureNativeCallSite(void *HookFrame, CallSite &Out) {
#if defined(__x86_64__)
  if (memoHit(uintptr_t(HookFrame), Out)) {
    ++ThreadFastWalks;
    return;
  }
  CallSite Fast;
  WalkTrail Trail;
  if (DLRT_LIKELY(fastWalk(uintptr_t(HookFrame), Fast, Trail))) {
    ++ThreadFastWalks;
    Out = Fast;
    WalkMemo &M = LastWalk;
    M.Words = 0;
    if (!Trail.Overflow) {
      M.HookFp = uintptr_t(HookFrame);
      for (unsigned I = 0; I < Trail.Words; ++I) {
        M.Address[I] = Trail.Address[I];
        M.Value[I] = Trail.Value[I];
      }
      for (unsigned I = 0; I < kRecordFrames; ++I)
        M.Result[I] = Fast.Frames[I];
      M.Words = Trail.Words;
    }
    return;
  }
#endif
  captureCallSiteSlow(HookFrame, Out);
}
} // namespace

void captureCallSite(void *HookFrame, CallSite &Out) {
  captureNativeCallSite(HookFrame, Out);
  if (DLRT_UNLIKELY(pythonMayRun()))
    addPythonCallSite(Out);
}

WalkerStats walkerStats() { return {ThreadFastWalks, SlowWalkCount.load()}; }

void resetStackWalker() {
  std::lock_guard<std::mutex> Lock(SlowMu);
  if (Cache)
    std::memset(static_cast<void *>(Cache), 0, sizeof(PcEntry) * kCacheEntries);
  ThreadFastWalks = 0;
  SlowWalkCount = 0;
}

} // namespace rt
} // namespace distlint
