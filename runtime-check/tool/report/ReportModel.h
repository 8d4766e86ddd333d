//===- ReportModel.h - What distlint-rt report says, resolved ---*- C++ -*-===//
//
// The report as plain data: rank labels, call-sites, how ranks ended, per-site
// counts and verdicts are resolved here once, from the Analysis, its Sites and
// the join, so the text, JSON and SARIF renderers (ReportText.cpp,
// ReportJson.cpp, ReportSarif.cpp) only format it and cannot disagree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Join.h"
#include "Merge.h"
#include "Sites.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

struct ReportInput {
  const Analysis &A;
  const Sites &S;
  const JoinResult *Join = nullptr; ///< Null without --findings.
  std::string TraceDir;
  std::string FindingsPath;
};

/// A source line (normalized absolute path).
struct ReportFrame {
  std::string File;
  unsigned Line = 0;
  std::string Function;
};

/// Where a record was issued.
struct ReportLocation {
  bool Known = false;      ///< Has file and line (else only Where).
  ReportFrame Primary;     ///< The best source line, when Known.
  std::string DisplayFile; ///< Primary's file relative to the working dir.
  std::string Where;       ///< "file:line", "module+0x…" or "an unknown…".
  std::string WhereWithCaller; ///< Where plus " (called from f:l)".
  std::string Python; ///< How a Python line issued it ("call", ...); "" if not.
  std::optional<std::string> Native; ///< The native frame beside a Python one.
};

/// One rank's record (an operation, or a watchdog's Hang record).
struct ReportOp {
  int Rank = -1;         ///< Global rank.
  std::string RankLabel; ///< "rank 3", or "pid 123" without a rank.
  int32_t CommRank = -1;
  std::string Name;          ///< "ncclAllReduce".
  std::string Description;   ///< describeOp().
  bool IsOp = false;         ///< An operation record (not a Hang record).
  bool IsCollective = false; ///< Its Seq numbers a collective.
  uint64_t Seq = 0;
  uint64_t Count = 0;
  std::optional<std::string> DataType, Reduction;
  int32_t Peer = -1;
  bool Completed = false;
  ReportLocation Loc;
  std::vector<ReportFrame> Frames; ///< All recorded user frames.
};

/// Ranks that issued the same operation at the same call-site.
struct ReportIssuedGroup {
  std::string Description;
  std::string WhereWithCaller;
  std::vector<std::string> Ranks; ///< Global ranks, first-seen order.
};

/// A communicator member that did not issue the diverging collective.
struct ReportMissingMember {
  int CommRank = -1;
  bool HasTrace = false; ///< The rest is set only with a trace.
  int Rank = -1;
  std::string RankLabel;
  std::string End;                    ///< RankEnd::Text.
  std::optional<ReportOp> BlockedIn;  ///< Where the rank got stuck.
  std::optional<ReportOp> LastCall;   ///< Its last operation overall.
  std::optional<ReportOp> LastBefore; ///< Its last one on the communicator.
  /// LastCall is the LastBefore record (the text names it once).
  bool LastCallIsLastBefore = false;
};

enum class DivergenceKind { NeverJoined, Mismatch, MissingRanks };

struct ReportDivergence {
  std::string CommName;  ///< "1a2b3c4d".
  std::string CommLabel; ///< "communicator 1a2b3c4d (NCCL, 2 ranks)".
  uint64_t Seq = 0;      ///< 0: at creation.
  DivergenceKind Kind = DivergenceKind::Mismatch;
  std::vector<std::string> Differs;
  std::vector<ReportOp> Issued;
  std::vector<ReportIssuedGroup> IssuedGroups;
  std::vector<int> MissingCommRanks;
  std::vector<ReportMissingMember> Missing; ///< In MissingCommRanks order.
  uint64_t SplitSeq = 0;
  std::vector<ReportOp> Split;
};

struct ReportHang {
  int Rank = -1;
  std::string RankLabel;
  std::optional<ReportOp> BlockedAt;
  uint64_t BlockedNs = 0;
  std::vector<ReportOp> Pending;
  uint64_t PendingNs = 0;
};

struct ReportP2P {
  std::string CommName, CommLabel;
  int From = -1, To = -1;
  uint64_t Sends = 0, Recvs = 0;
  std::optional<ReportOp> LastSend, LastRecv;
  std::string Detail;
};

struct ReportLiveMismatch {
  int Rank = -1;
  std::string RankLabel;
  MismatchKind Kind = MismatchKind::Fingerprint;
  uint64_t Seq = 0;
  std::string CommName;
  int32_t Peer = -1;
  uint64_t LatencyNs = 0; ///< From the divergence to the watchdog's report.
};

/// An asynchronous NCCL error or a watchdog abort.
struct ReportCommEvent {
  std::string RankLabel;
  std::string CommName;
  int32_t Result = 0;
};

struct ReportRank {
  int Rank = -1;
  std::string Label;
  int Pid = 0;
  std::string Host, Program, TracePath;
  size_t Operations = 0;
  std::string End;
  std::optional<ReportOp> BlockedIn;
};

struct ReportCommunicator {
  std::string Name;
  std::string ApiName;
  int Size = 0;
  uint64_t Agreed = 0;
  std::string CreatedBy; ///< Creating call, "" if none was recorded.
  std::string CreatedAt;
};

/// Operations one call-site issued, per global rank (JSON's "sites").
struct ReportSite {
  std::string File; ///< Or the where-string without line information.
  unsigned Line = 0;
  std::string Op;
  std::map<int, uint64_t> Counts;
  std::map<int, uint64_t> CompletionNotObserved; ///< Untracked or captured.
  std::set<std::string> Python; ///< How Python lines issued them.
};

/// One rank's host synchronizations at one call-site.
struct ReportSync {
  int Rank = -1;
  std::string Op;
  uint64_t Count = 0;
  uint64_t TotalNs = 0;
  bool Known = false; ///< File and Line are set (else only Where).
  std::string File;
  unsigned Line = 0;
  std::string Where;
};

/// Host synchronizations of one call-site and op, every rank in trace order.
struct ReportSyncRow {
  std::string Where, Op;
  std::vector<std::pair<int, uint64_t>> PerRank;
};

struct ReportFinding {
  std::string Rule, File, DisplayFile, Message, Fingerprint;
  unsigned Line = 0;
  std::string Verdict;
  std::string Evidence;
  bool ViaNote = false;
  std::map<int, uint64_t> Counts;
};

struct ReportRuntimeOnly {
  std::string Kind, Summary;
};

/// A finding or count of the Python startup hook (PythonChecks.h).
struct ReportPythonCheck {
  int Rank = -1;
  std::string Check, Call, Torch, Backend, Message;
  bool Defect = false;
  std::string Where;
  std::optional<ReportFrame> Site; ///< Its source line, when resolved.
  int64_t Epoch = -1, DefaultSeconds = -1;
  uint64_t Count = 0, Steps = 0;
};

struct ReportModel {
  std::string TraceDir;
  std::string Program;    ///< From run.json; "" without.
  std::string WorkingDir; ///< Normalized; SARIF's SRCROOT.
  bool Clean = false;
  std::vector<ReportRank> Ranks;
  std::vector<ReportCommunicator> Communicators;
  std::vector<ReportDivergence> Divergences; ///< Earliest first.
  std::vector<ReportHang> Hangs;
  std::vector<ReportP2P> P2P;
  std::vector<ReportCommEvent> AsyncErrors;
  std::vector<ReportLiveMismatch> LiveMismatches;
  std::vector<ReportCommEvent> WatchdogAborts;
  std::vector<ReportSite> Sites;
  std::vector<ReportSync> Syncs;        ///< Per rank, in trace order.
  std::vector<ReportSyncRow> SyncTable; ///< By call-site and op.
  bool HaveFindings = false;
  std::string FindingsPath;
  std::vector<ReportFinding> Findings;
  std::vector<ReportRuntimeOnly> RuntimeOnly;
  std::vector<ReportPythonCheck> PythonChecks;
  std::vector<std::string> Notes;
  std::vector<std::string> ProblemSummary; ///< The "result:" list; unclean.
};

ReportModel buildReportModel(const ReportInput &In);

} // namespace rt
} // namespace distlint
