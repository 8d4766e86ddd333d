//===- LiveSources.h - The traces the live comparison follows ---*- C++ -*-===//
//
// This rank's trace and the other ranks' traces of the same run, mapped
// read-only, and the copy of a record taken without a lock. Internal to the
// live comparison (LiveCompare.cpp); the watchdog thread only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "LiveCompare.h"
#include "Runtime.h"
#include "TraceFormat.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace distlint {
namespace rt {
namespace live {

/// What the comparison needs of a record.
struct Snapshot {
  uint64_t Slot = 0, Seq = 0, CommId = 0, Count = 0, StartNs = 0, Aux = 0;
  uint16_t Op = 0, ApiId = 0;
  int32_t DataType = -1, RedOp = -1, Peer = -1, CommRank = -1, CommSize = 0;
  uint32_t Tid = 0;
  PackedFrame Frame = 0;
};

/// A trace being followed: this rank's own or another rank's (mapped).
struct Source {
  bool Own = false;
  int Pid = 0;
  const TraceHeader *Header = nullptr;
  const TraceRecord *Ring = nullptr;
  uint64_t Mask = 0;
  void *Map = nullptr;
  size_t Bytes = 0;
  uint64_t Cursor = 0;
  bool Ended = false;
  Snapshot EndRec;
  std::unordered_map<uint64_t, uint64_t> LastSeq; ///< Per communicator.
  std::unordered_map<uint64_t, Snapshot> CommEnded;
  /// The newest record read, when this watchdog first saw it, its kind.
  Snapshot Newest;
  uint32_t NewestKind = 0;
  uint64_t NewestSinceNs = 0;
  bool HasNewest = false;
  /// The thread that issued its operations; another one (Multithreaded)
  /// may be about to issue what the first waits for.
  uint32_t IssuerTid = 0;
  bool Multithreaded = false;

  int rank() const { return Header->Rank.load(std::memory_order_relaxed); }
  bool member(uint64_t Comm) const { return LastSeq.count(Comm) != 0; }
};

using Sources = std::vector<std::unique_ptr<Source>>;

/// Copies the record at Slot; false if the ring reused the slot (or it is
/// not committed yet) while it was read.
bool copyRecord(const TraceRecord &R, uint64_t Slot, Snapshot &Out,
                uint32_t &Kind);
/// Maps the traces in Dir of the other ranks of this run that this rank
/// follows (all of them in small jobs, else its neighbours) and appends
/// those not in Followed yet.
void scanDirectory(const std::string &Dir, Sources &Followed, TraceWriter &Own);

} // namespace live
} // namespace rt
} // namespace distlint
