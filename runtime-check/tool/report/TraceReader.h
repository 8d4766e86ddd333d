//===- TraceReader.h - Load the per-rank trace files -----------*- C++ -*-===//
#pragma once

#include "TraceFormat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

/// A TraceRecord copied out of the file, with its slot.
struct Record {
  uint64_t Slot = 0;
  uint64_t Seq = 0;
  uint64_t CommId = 0;
  uint64_t Count = 0;
  uint64_t StartNs = 0;
  uint64_t EndNs = 0;
  uint64_t Aux = 0;
  RecordKind Kind = RecordKind::Op;
  Api ApiId = Api::None;
  OpCode Op = OpCode::None;
  int32_t DataType = -1;
  int32_t RedOp = -1;
  int32_t Peer = -1;
  int32_t CommRank = -1;
  int32_t CommSize = 0;
  uint32_t Group = 0;
  uint32_t State = 0;
  int32_t Result = 0;
  uint32_t Tid = 0;
  int32_t Tag = 0;
  PackedFrame Frames[kRecordFrames] = {0, 0, 0};

  bool has(uint32_t Bit) const { return (State & Bit) != 0; }
  const OpInfo &info() const { return opInfo(Op); }
};

struct SyncCount {
  OpCode Op;
  PackedFrame Site;
  uint64_t Count, TotalNs, MaxNs;
};

/// Everything one rank's file holds.
struct RankTrace {
  std::string Path;
  int Rank = -1;
  int WorldSize = 0;
  int LocalRank = -1;
  int Pid = 0;
  std::string Host;
  std::string Program;
  uint64_t StartRealtimeNs = 0;
  uint64_t StartMonotonicNs = 0;
  uint64_t TimeoutNs = 0;
  uint64_t RunId = 0;    ///< 0: unknown.
  int ForkParentPid = 0; ///< Non-zero: a forked child, not a rank.
  uint64_t HeartbeatNs = 0;
  uint32_t Flags = 0;
  uint32_t HangCount = 0;
  uint64_t UntrackedOps = 0;
  uint64_t Head = 0;
  uint32_t Capacity = 0;
  std::vector<std::string> Modules; ///< By module index.
  std::vector<Record> Records;      ///< In slot order; torn records dropped.
  std::vector<SyncCount> Syncs;

  bool wrapped() const { return Head > Capacity; }
  bool exited() const { return Flags & HeaderExited; }
  /// Wall-clock time of a monotonic timestamp of this rank.
  uint64_t toRealtime(uint64_t MonoNs) const {
    return StartRealtimeNs + (MonoNs - StartMonotonicNs);
  }
  const Record *bySlot(uint64_t Slot) const;
};

/// Reads one trace file; false with Error on a file that is not a trace.
bool readTraceFile(const std::string &Path, RankTrace &Out, std::string &Error);

/// Reads every distlint-rt.*.trace file in Dir, ordered by rank then pid.
/// Files that cannot be read are reported in Errors and skipped.
std::vector<RankTrace> readTraceDir(const std::string &Dir,
                                    std::vector<std::string> &Errors);

/// Keeps the traces of one launch: run WantRunId if given and present,
/// else the run of the most recently started trace; the others are dropped
/// with one note. False with Error when two traces of that run claim the
/// same rank (N singletons, or two jobs writing one directory).
bool selectRun(std::vector<RankTrace> &Traces, uint64_t WantRunId,
               std::vector<std::string> &Notes, std::string &Error);

/// Just the header counters, cheaply (the launcher polls these).
struct TraceHeaderPeek {
  int Rank = -1;
  int Pid = 0;
  uint32_t HangCount = 0;
  uint32_t Flags = 0;
  uint64_t Head = 0;
  uint64_t RunId = 0;
  uint32_t MismatchCount = 0;
};
bool peekTraceHeader(const std::string &Path, TraceHeaderPeek &Out);

} // namespace rt
} // namespace distlint
