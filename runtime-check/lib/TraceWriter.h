//===- TraceWriter.h - Append records to this rank's trace file -*- C++ -*-===//
#pragma once

#include "TraceFormat.h"

#include <cstdint>
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
    Slot = Header->Head.fetch_add(1, std::memory_order_relaxed);
    TraceRecord *R = &Records[Slot & Mask];
    R->Commit.store(0, std::memory_order_relaxed);
    if (__builtin_expect(Slot == Capacity, 0))
      Header->Flags.fetch_or(HeaderWrapped);
    return R;
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
