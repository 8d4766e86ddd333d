//===- Merge.h - Merge rank traces and explain divergences ------*- C++ -*-===//
//
// Lines the ranks' records up per communicator by sequence number, finds the
// first operation the members do not agree on (someone missing, or a
// different operation, count, type, reduction or root), pairs point-to-point
// traffic, and collects hangs the watchdogs reported.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "RunManifest.h"
#include "TraceNames.h"
#include "TraceReader.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

/// A record as one rank saw it.
struct RankOp {
  int Trace = -1; ///< Index into Analysis::Traces.
  const Record *Rec = nullptr;
};

/// Communicator sizes above this (or above the job's world size) in a trace
/// are treated as corrupt records: larger than any job distlint-rt confirms.
constexpr int32_t kMaxCommunicatorSize = 1 << 20;

struct CommSummary {
  uint64_t Id = 0;
  Api ApiId = Api::None;
  int Size = 0;
  std::vector<int> Members; ///< Comm rank -> trace index, -1 if absent.
  uint64_t Agreed = 0;      ///< Collectives every member issued alike.
  RankOp Created;           ///< A creation record (for its call-site).
};

struct Divergence {
  uint64_t CommId = 0;
  uint64_t Seq = 0; ///< First operation the members disagree on (0: joining).
  uint64_t TimeNs = 0;               ///< Wall clock of the earliest issue.
  std::vector<RankOp> Issued;        ///< Members that issued operation Seq.
  std::vector<int> MissingCommRanks; ///< Members that did not.
  std::map<int, RankOp>
      LastBefore; ///< Missing member -> its last op on the comm.
  std::vector<std::string> Differs; ///< Fields that differ among Issued.
  /// An earlier collective the members agreed on but issued from different
  /// call-sites: often where they really went apart (NCCL pairs a skipped
  /// call with the next alike one).
  uint64_t SplitSeq = 0;
  std::vector<RankOp> SplitOps;
};

/// One rank's hang: where its host was stuck, and the operations it had
/// issued that never completed.
struct HangReport {
  int Trace = -1;
  std::vector<const Record *> Hangs; ///< The watchdog's Hang records.
  /// Where the host was blocked: an operation inside its call (MPI_Recv,
  /// ncclCommInitRank...) or a Hang record of a wait (cudaStreamSynchronize).
  const Record *BlockedAt = nullptr;
  uint64_t BlockedNs = 0;
  std::vector<const Record *> Pending; ///< Issued, never completed.
  uint64_t PendingNs = 0;              ///< Longest pending time reported.
};

struct P2PIssue {
  uint64_t CommId = 0;
  int From = -1, To = -1; ///< Comm ranks.
  uint64_t Sends = 0, Recvs = 0;
  RankOp LastSend, LastRecv;
  std::string Detail; ///< For mismatched counts.
};

/// A line describing how a rank ended (exit, kill, blocked in ...).
struct RankEnd {
  std::string Text;
  const Record *BlockedIn = nullptr;
  const Record *LastCall = nullptr; ///< The rank's last recorded operation.
};

struct Analysis {
  std::vector<RankTrace> Traces;
  RunManifest Manifest;
  bool HaveManifest = false;
  std::vector<CommSummary> Comms;
  std::vector<Divergence> Divergences; ///< Earliest first.
  std::vector<HangReport> Hangs;
  std::vector<P2PIssue> P2P;
  std::vector<RankOp> AsyncErrors;
  std::vector<RankOp> WatchdogAborts;
  std::vector<RankOp>
      LiveMismatches; ///< What the watchdogs saw while the job ran.
  /// Defects the Python startup hook recorded (PythonCheck records).
  std::vector<RankOp> PythonDefects;
  std::vector<std::string> Notes;

  bool clean() const;
  bool anyRankFailed() const;
  const CommSummary *comm(uint64_t Id) const;
  RankEnd rankEnd(int Trace) const;
  int rankOf(int Trace) const { return Traces[size_t(Trace)].Rank; }
};

Analysis analyze(std::vector<RankTrace> Traces, const RunManifest *Manifest);

/// Fields in which two operations' fingerprints differ.
std::vector<std::string> fingerprintDiff(const Record &A, const Record &B);

/// "ncclAllReduce(count=1024, float32, sum)".
std::string describeOp(const Record &R);

} // namespace rt
} // namespace distlint
