//===- TraceWriter.h - Append records to this rank's trace file -*- C++ -*-===//
#pragma once

#include "Support.h"
#include "TraceFormat.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace distlint {
namespace rt {

struct TraceOptions {
  std::string Dir;
  uint32_t Records = 65536;
  uint64_t TimeoutNs = 0;
  int Rank = -1;
  int WorldSize = 0;
  int LocalRank = -1;
  uint64_t RunId = 0;
  int ForkParentPid = 0;
};

class TraceWriter {
public:
  /// Creates <Dir>/distlint-rt.<host>.<rank>.<pid>.trace (0600) and maps it.
  /// Returns null with a message in Error on failure.
  static TraceWriter *create(const TraceOptions &Options, std::string &Error);

  TraceHeader &header() { return *Header; }
  const TraceRecord *ring() const { return Records; }
  const std::string &path() const { return Path; }

  /// Claims the next slot; the caller fills the record, then commits it.
  TraceRecord *claim(uint64_t &Slot) {
    // The ring's head has an owner while a single thread appends (the usual
    // case): it advances the head without a locked instruction. The first
    // other thread to append takes the head from it for good (shareHead).
    const void *Me = threadToken();
    if (DLRT_LIKELY(HeadOwner.load(std::memory_order_relaxed) == Me)) {
      // Announce, then look again: shareHead's membarrier orders the two
      // for the taker, so no fence is needed here.
      OwnerBusy.store(1, std::memory_order_relaxed);
      std::atomic_signal_fence(std::memory_order_seq_cst);
      if (DLRT_LIKELY(HeadOwner.load(std::memory_order_relaxed) == Me)) {
        Slot = bumpOwnedHead();
        OwnerBusy.store(0, std::memory_order_release);
        return slotRecord(Slot);
      }
      OwnerBusy.store(0, std::memory_order_release);
    }
    return claimShared(Slot);
  }
  void commit(TraceRecord *R, uint64_t Slot) {
    R->Commit.store(Slot + 1, std::memory_order_release);
  }
  /// The record in Slot, or null once the ring overwrote it.
  TraceRecord *recordAt(uint64_t Slot) {
    TraceRecord *R = &Records[Slot & Mask];
    return R->Commit.load(std::memory_order_acquire) == Slot + 1 ? R : nullptr;
  }

  /// Counts one host synchronization at a call-site.
  void countSync(OpCode Op, PackedFrame Site, uint64_t DurationNs);
  /// Mirrors the stack walker's module registry into the file.
  void writeModule(uint32_t Index, const char *Path);
  /// Records the global rank learned late (MPI_Init) and renames the file.
  void setRank(int Rank, int WorldSize);

private:
  static const void *threadToken() {
    static DLRT_TLS char Token;
    return &Token;
  }
  /// The owner's increment of the head: one instruction, so a signal handler
  /// on the owner's thread that appends cannot split it.
  uint64_t bumpOwnedHead() {
#if defined(__x86_64__) && !DLRT_TSAN
    uint64_t Old = 1;
    asm volatile("xaddq %0, %1" // No lock prefix: only this thread writes.
                 : "+r"(Old), "+m"(*reinterpret_cast<uint64_t *>(&Header->Head))
                 :
                 : "memory");
    return Old;
#else
    // TSan sees these as atomics (the signal case aside, the same thing).
    uint64_t Old = Header->Head.load(std::memory_order_relaxed);
    Header->Head.store(Old + 1, std::memory_order_relaxed);
    return Old;
#endif
  }
  TraceRecord *slotRecord(uint64_t Slot) {
    TraceRecord *R = &Records[Slot & Mask];
    R->Commit.store(0, std::memory_order_relaxed);
    if (DLRT_UNLIKELY(Slot == Capacity))
      Header->Flags.fetch_or(HeaderWrapped);
    return R;
  }
  /// claim() for threads that do not own the head (and the first claim).
  TraceRecord *claimShared(uint64_t &Slot);
  /// Makes the head shared: every claim from now on is a locked add.
  void shareHead();

  static inline const void *const kHeadShared =
      reinterpret_cast<const void *>(uintptr_t(1));
  static inline const void *const kHeadSharing =
      reinterpret_cast<const void *>(uintptr_t(2));
  /// Null (unowned yet), the owner's threadToken(), kHeadSharing while
  /// shareHead() waits for the owner, then kHeadShared.
  std::atomic<const void *> HeadOwner{kHeadShared};
  /// Set by the owner around its increment of the head.
  std::atomic<uint32_t> OwnerBusy{0};
  std::mutex ShareMu;

  TraceHeader *Header = nullptr;
  ModuleEntry *Modules = nullptr;
  SyncSite *SyncSites = nullptr;
  TraceRecord *Records = nullptr;
  uint32_t Capacity = 0; ///< A power of two.
  uint64_t Mask = 0;
  std::string Dir, Path, Host;
};

} // namespace rt
} // namespace distlint
