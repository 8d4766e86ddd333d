//===- ReportText.cpp - distlint-rt report as text ------------------------===//
#include "ReportShared.h"

#include <cstdio>

namespace distlint {
namespace rt {

namespace {

/// What a live report saw, as the text report says it.
const char *liveKindText(MismatchKind K) {
  switch (K) {
  case MismatchKind::Fingerprint:
    return "a different collective";
  case MismatchKind::MovedOn:
    return "a member that moved on";
  case MismatchKind::CrossWait:
    return "a member waiting for it on another communicator";
  }
  return "a divergence";
}

std::string seconds(uint64_t Ns) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f s", double(Ns) / 1e9);
  return Buf;
}

/// " #7" after an operation that numbers a collective, else "".
std::string seqSuffix(const ReportOp &Op) {
  return Op.IsOp && Op.IsCollective ? " #" + std::to_string(Op.Seq) : "";
}

/// "blocked in X at f:l" for a rank that did not get further, or "".
std::string blockedText(const std::optional<ReportOp> &BlockedIn) {
  if (!BlockedIn)
    return "";
  return "blocked in " + BlockedIn->Name + seqSuffix(*BlockedIn) + " at " +
         BlockedIn->Loc.Where;
}

void writeDivergenceLines(std::ostream &OS, const ReportDivergence &D) {
  if (D.Kind == DivergenceKind::NeverJoined) {
    std::vector<std::string> Missing;
    for (int R : D.MissingCommRanks)
      Missing.push_back(std::to_string(R));
    OS << "  communicator rank(s) " << joinList(Missing) << " never joined it";
    if (!D.Issued.empty())
      OS << "; " << D.Issued[0].RankLabel << " created it at "
         << D.Issued[0].Loc.Where;
    OS << "\n";
    return;
  }
  for (const ReportIssuedGroup &G : D.IssuedGroups)
    OS << "  " << (G.Ranks.size() == 1 ? "rank " : "ranks ")
       << joinList(G.Ranks) << " issued " << G.Description << " at "
       << G.WhereWithCaller << "\n";
  for (const ReportMissingMember &M : D.Missing) {
    if (!M.HasTrace) {
      OS << "  communicator rank " << M.CommRank << " has no trace\n";
      continue;
    }
    OS << "  " << M.RankLabel << " never issued collective #" << D.Seq;
    if (M.LastBefore)
      OS << "; its last collective on this communicator was #"
         << M.LastBefore->Seq << " " << M.LastBefore->Description << " at "
         << M.LastBefore->Loc.WhereWithCaller;
    std::string Blocked = blockedText(M.BlockedIn);
    if (!Blocked.empty())
      OS << "; it was " << Blocked;
    else if (M.LastCall && !M.LastCallIsLastBefore)
      OS << "; its last call was " << M.LastCall->Name << " at "
         << M.LastCall->Loc.WhereWithCaller;
    OS << "; it " << M.End << "\n";
  }
  if (!D.Differs.empty())
    OS << "  the ranks disagree on: " << joinList(D.Differs) << "\n";
  if (D.SplitSeq) {
    std::vector<std::string> Sites;
    for (const ReportOp &Op : D.Split)
      Sites.push_back(Op.RankLabel + " at " + Op.Loc.WhereWithCaller);
    OS << "  note: collective #" << D.SplitSeq
       << " matched, but came from different call-sites (" << joinList(Sites)
       << "): the ranks may have gone apart there\n";
  }
}

void writeHang(std::ostream &OS, const ReportHang &H) {
  OS << "  " << H.RankLabel << ": ";
  if (H.BlockedAt) {
    const ReportOp &B = *H.BlockedAt;
    OS << "blocked in " << (B.IsOp ? B.Description : B.Name) << seqSuffix(B)
       << " at " << B.Loc.Where << " for " << seconds(H.BlockedNs);
    if (!H.Pending.empty())
      OS << ", waiting for ";
  } else {
    OS << "not complete after " << seconds(H.PendingNs) << ": ";
  }
  std::vector<std::string> Items;
  for (const ReportOp &Op : H.Pending)
    Items.push_back(Op.Description +
                    (Op.IsCollective ? " #" + std::to_string(Op.Seq) : "") +
                    " at " + Op.Loc.Where);
  OS << joinList(Items) << "\n";
}

void writeP2P(std::ostream &OS, const ReportP2P &P) {
  OS << "  " << P.CommLabel << ": rank " << P.From << " -> rank " << P.To
     << ": " << P.Sends << " send(s), " << P.Recvs << " receive(s)";
  if (P.LastSend)
    OS << "; last send at " << P.LastSend->Loc.Where;
  if (P.LastRecv)
    OS << "; last receive at " << P.LastRecv->Loc.Where;
  if (!P.Detail.empty())
    OS << "; " << P.Detail;
  OS << "\n";
}

void writeEvents(std::ostream &OS, const ReportModel &M) {
  for (const ReportCommEvent &E : M.AsyncErrors)
    OS << "\nASYNC ERROR: " << E.RankLabel
       << ": ncclCommGetAsyncError returned " << E.Result << " on communicator "
       << E.CommName << "\n";
  for (const ReportLiveMismatch &E : M.LiveMismatches) {
    char Latency[64];
    std::snprintf(Latency, sizeof(Latency), "%.2f s",
                  double(E.LatencyNs) / 1e9);
    OS << "\nSEEN LIVE: " << E.RankLabel << "'s watchdog reported "
       << liveKindText(E.Kind) << " at collective #" << E.Seq
       << " of communicator " << E.CommName << " (rank " << E.Peer << "), "
       << Latency << " after it happened\n";
  }
  for (const ReportCommEvent &E : M.WatchdogAborts)
    OS << "\nABORTED: " << E.RankLabel << ": the watchdog aborted communicator "
       << E.CommName << " (DISTLINT_RT_ABORT=1)\n";
}

void writeRanksAndCommunicators(std::ostream &OS, const ReportModel &M) {
  OS << "\nranks:\n";
  for (const ReportRank &R : M.Ranks) {
    OS << "  " << R.Label << " (pid " << R.Pid << ", " << R.Operations
       << (R.Operations == 1 ? " operation): " : " operations): ");
    std::string Blocked = blockedText(R.BlockedIn);
    if (!Blocked.empty())
      OS << Blocked << "; ";
    OS << R.End << "\n";
  }
  if (!M.Communicators.empty()) {
    OS << "communicators:\n";
    for (const ReportCommunicator &C : M.Communicators) {
      OS << "  " << C.Name << " " << C.ApiName << ", " << C.Size << " ranks";
      if (!C.CreatedBy.empty())
        OS << ", created by " << C.CreatedBy << " at " << C.CreatedAt;
      OS << ": " << C.Agreed << " collective(s) agreed on all ranks\n";
    }
  }
  if (!M.SyncTable.empty()) {
    OS << "host synchronizations (calls per call-site and rank):\n";
    for (const ReportSyncRow &Row : M.SyncTable) {
      OS << "  " << Row.Where << " " << Row.Op << ":";
      for (size_t I = 0; I < Row.PerRank.size(); ++I)
        OS << (I ? ", rank " : " rank ") << Row.PerRank[I].first << " "
           << Row.PerRank[I].second << "x";
      OS << "\n";
    }
  }
}

void writeFindings(std::ostream &OS, const ReportModel &M) {
  OS << "\nstatic findings (" << M.FindingsPath << "):\n";
  for (const ReportFinding &F : M.Findings) {
    std::string Verdict = F.Verdict;
    Verdict.resize(18, ' ');
    OS << "  " << Verdict << F.DisplayFile << ":" << F.Line << ": [" << F.Rule
       << "] " << F.Message << "\n";
    OS << "  " << std::string(18, ' ') << F.Evidence;
    if (F.ViaNote)
      OS << " (matched at a note's line)";
    OS << "\n";
  }
  if (!M.RuntimeOnly.empty()) {
    OS << "runtime-only problems (no static finding predicted them):\n";
    for (const ReportRuntimeOnly &P : M.RuntimeOnly)
      OS << "  " << P.Kind << ": " << P.Summary << "\n";
  }
}

} // namespace

void writeTextReport(std::ostream &OS, const ReportModel &M) {
  OS << "distlint-rt report for " << M.TraceDir << ": " << M.Ranks.size()
     << " rank trace(s), " << M.Communicators.size() << " communicator(s)\n";
  if (!M.Program.empty())
    OS << "program: " << M.Program << "\n";

  for (size_t I = 0; I < M.Divergences.size(); ++I) {
    const ReportDivergence &D = M.Divergences[I];
    OS << "\n"
       << (I == 0 ? "FIRST DIVERGENCE: " : "divergence: ") << D.CommLabel;
    if (D.Seq)
      OS << ", collective #" << D.Seq;
    else
      OS << ", at creation";
    OS << "\n";
    writeDivergenceLines(OS, D);
  }
  if (!M.Hangs.empty()) {
    OS << "\nHANGS (pending past the watchdog timeout)\n";
    for (const ReportHang &H : M.Hangs)
      writeHang(OS, H);
  }
  if (!M.P2P.empty()) {
    OS << "\nPOINT-TO-POINT that does not pair up\n";
    for (const ReportP2P &P : M.P2P)
      writeP2P(OS, P);
  }
  writeEvents(OS, M);
  writeRanksAndCommunicators(OS, M);
  if (M.HaveFindings)
    writeFindings(OS, M);
  if (!M.PythonChecks.empty()) {
    OS << "\nPYTHON (the startup hook)\n";
    for (const ReportPythonCheck &P : M.PythonChecks)
      OS << "  rank " << P.Rank << ": " << P.Where << ": " << P.Message << "\n";
  }
  for (const std::string &N : M.Notes)
    OS << "note: " << N << "\n";

  OS << "\nresult: ";
  if (M.Clean)
    OS << "no divergence and no hang\n";
  else
    OS << joinList(M.ProblemSummary) << "\n";
}

} // namespace rt
} // namespace distlint
