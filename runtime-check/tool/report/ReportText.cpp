//===- ReportText.cpp - distlint-rt report as text ------------------------===//
#include "PythonChecks.h"
#include "ReportShared.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace distlint {
namespace rt {

using nlohmann::json;

namespace {

/// What a live report saw, in the text report and as JSON's "kind".
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

std::string rankLabel(const Analysis &A, int Trace) {
  const RankTrace &T = A.Traces[size_t(Trace)];
  return T.Rank >= 0 ? "rank " + std::to_string(T.Rank)
                     : "pid " + std::to_string(T.Pid);
}

std::string seconds(uint64_t Ns) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f s", double(Ns) / 1e9);
  return Buf;
}

std::string opLabel(const Record &R) {
  OpCategory C = R.info().Category;
  if (C == OpCategory::Collective || C == OpCategory::CommCreate)
    return "collective #" + std::to_string(R.Seq);
  return "operation";
}

std::string commLabel(const Analysis &A, uint64_t Id) {
  const CommSummary *C = A.comm(Id);
  std::string S = "communicator " + commName(Id);
  if (C)
    S += std::string(" (") + apiName(C->ApiId) + ", " +
         std::to_string(C->Size) + " ranks)";
  return S;
}

/// "blocked in X at f:l" for a rank that did not get further, or "".
std::string blockedText(const ReportInput &In, int Trace, const RankEnd &End) {
  if (!End.BlockedIn)
    return "";
  const Record &R = *End.BlockedIn;
  std::string S = std::string("blocked in ") + R.info().Name;
  if (R.Kind == RecordKind::Op && R.info().Category == OpCategory::Collective)
    S += " #" + std::to_string(R.Seq);
  return S + " at " + In.S.where(Trace, R);
}

void writeDivergence(std::ostream &OS, const ReportInput &In,
                     const Divergence &D) {
  const Analysis &A = In.A;
  if (D.Seq == 0) {
    std::vector<std::string> Missing;
    for (int R : D.MissingCommRanks)
      Missing.push_back(std::to_string(R));
    OS << "  communicator rank(s) " << joinList(Missing) << " never joined it";
    if (!D.Issued.empty())
      OS << "; " << rankLabel(A, D.Issued[0].Trace) << " created it at "
         << In.S.where(D.Issued[0].Trace, *D.Issued[0].Rec);
    OS << "\n";
    return;
  }
  // Group identical issues at the same call-site.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>>
      Groups;
  std::vector<std::pair<std::string, std::string>> Order;
  for (const RankOp &Op : D.Issued) {
    auto K = std::make_pair(describeOp(*Op.Rec),
                            In.S.whereWithCaller(Op.Trace, *Op.Rec));
    if (!Groups.count(K))
      Order.push_back(K);
    Groups[K].push_back(std::to_string(A.rankOf(Op.Trace)));
  }
  for (const auto &K : Order) {
    const auto &Ranks = Groups[K];
    OS << "  " << (Ranks.size() == 1 ? "rank " : "ranks ") << joinList(Ranks)
       << " issued " << K.first << " at " << K.second << "\n";
  }
  const CommSummary *C = A.comm(D.CommId);
  for (int CommRank : D.MissingCommRanks) {
    int Trace = C && CommRank < int(C->Members.size())
                    ? C->Members[size_t(CommRank)]
                    : -1;
    if (Trace < 0) {
      OS << "  communicator rank " << CommRank << " has no trace\n";
      continue;
    }
    OS << "  " << rankLabel(A, Trace) << " never issued collective #" << D.Seq;
    auto Last = D.LastBefore.find(CommRank);
    if (Last != D.LastBefore.end())
      OS << "; its last collective on this communicator was #"
         << Last->second.Rec->Seq << " " << describeOp(*Last->second.Rec)
         << " at " << In.S.whereWithCaller(Trace, *Last->second.Rec);
    RankEnd End = A.rankEnd(Trace);
    std::string Blocked = blockedText(In, Trace, End);
    if (!Blocked.empty())
      OS << "; it was " << Blocked;
    else if (End.LastCall &&
             (Last == D.LastBefore.end() || End.LastCall != Last->second.Rec))
      OS << "; its last call was " << End.LastCall->info().Name << " at "
         << In.S.whereWithCaller(Trace, *End.LastCall);
    OS << "; it " << End.Text << "\n";
  }
  if (!D.Differs.empty())
    OS << "  the ranks disagree on: " << joinList(D.Differs) << "\n";
  if (D.SplitSeq) {
    std::vector<std::string> Sites;
    for (const RankOp &Op : D.SplitOps)
      Sites.push_back(rankLabel(A, Op.Trace) + " at " +
                      In.S.whereWithCaller(Op.Trace, *Op.Rec));
    OS << "  note: collective #" << D.SplitSeq
       << " matched, but came from different call-sites (" << joinList(Sites)
       << "): the ranks may have gone apart there\n";
  }
}

} // namespace

void writeTextReport(std::ostream &OS, const ReportInput &In) {
  const Analysis &A = In.A;
  OS << "distlint-rt report for " << In.TraceDir << ": " << A.Traces.size()
     << " rank trace(s), " << A.Comms.size() << " communicator(s)\n";
  if (A.HaveManifest && !A.Manifest.Program.empty())
    OS << "program: " << A.Manifest.Program << "\n";

  for (size_t I = 0; I < A.Divergences.size(); ++I) {
    const Divergence &D = A.Divergences[I];
    OS << "\n"
       << (I == 0 ? "FIRST DIVERGENCE: " : "divergence: ")
       << commLabel(A, D.CommId);
    if (D.Seq)
      OS << ", collective #" << D.Seq;
    else
      OS << ", at creation";
    OS << "\n";
    writeDivergence(OS, In, D);
  }

  if (!A.Hangs.empty()) {
    OS << "\nHANGS (pending past the watchdog timeout)\n";
    for (const HangReport &H : A.Hangs) {
      OS << "  " << rankLabel(A, H.Trace) << ": ";
      if (H.BlockedAt) {
        const Record &B = *H.BlockedAt;
        OS << "blocked in "
           << (B.Kind == RecordKind::Op ? describeOp(B)
                                        : std::string(B.info().Name));
        if (B.Kind == RecordKind::Op &&
            B.info().Category == OpCategory::Collective)
          OS << " #" << B.Seq;
        OS << " at " << In.S.where(H.Trace, B) << " for "
           << seconds(H.BlockedNs);
        if (!H.Pending.empty())
          OS << ", waiting for ";
      } else {
        OS << "not complete after " << seconds(H.PendingNs) << ": ";
      }
      std::vector<std::string> Items;
      for (const Record *O : H.Pending) {
        std::string Item = describeOp(*O);
        if (O->info().Category == OpCategory::Collective)
          Item += " #" + std::to_string(O->Seq);
        Items.push_back(Item + " at " + In.S.where(H.Trace, *O));
      }
      OS << joinList(Items) << "\n";
    }
  }

  if (!A.P2P.empty()) {
    OS << "\nPOINT-TO-POINT that does not pair up\n";
    for (const P2PIssue &P : A.P2P) {
      OS << "  " << commLabel(A, P.CommId) << ": rank " << P.From << " -> rank "
         << P.To << ": " << P.Sends << " send(s), " << P.Recvs << " receive(s)";
      if (P.LastSend.Rec)
        OS << "; last send at "
           << In.S.where(P.LastSend.Trace, *P.LastSend.Rec);
      if (P.LastRecv.Rec)
        OS << "; last receive at "
           << In.S.where(P.LastRecv.Trace, *P.LastRecv.Rec);
      if (!P.Detail.empty())
        OS << "; " << P.Detail;
      OS << "\n";
    }
  }

  for (const RankOp &E : A.AsyncErrors)
    OS << "\nASYNC ERROR: " << rankLabel(A, E.Trace)
       << ": ncclCommGetAsyncError returned " << E.Rec->Result
       << " on communicator " << commName(E.Rec->CommId) << "\n";
  for (const RankOp &E : A.LiveMismatches) {
    char Latency[64];
    std::snprintf(Latency, sizeof(Latency), "%.2f s",
                  double(E.Rec->EndNs - E.Rec->StartNs) / 1e9);
    OS << "\nSEEN LIVE: " << rankLabel(A, E.Trace) << "'s watchdog reported "
       << liveKindText(MismatchKind(E.Rec->Tag)) << " at collective #"
       << E.Rec->Seq << " of communicator " << commName(E.Rec->CommId)
       << " (rank " << E.Rec->Peer << "), " << Latency
       << " after it happened\n";
  }
  for (const RankOp &E : A.WatchdogAborts)
    OS << "\nABORTED: " << rankLabel(A, E.Trace)
       << ": the watchdog aborted communicator " << commName(E.Rec->CommId)
       << " (DISTLINT_RT_ABORT=1)\n";

  OS << "\nranks:\n";
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    RankEnd End = A.rankEnd(int(T));
    size_t Ops = 0;
    for (const Record &R : Tr.Records)
      Ops += R.Kind == RecordKind::Op;
    OS << "  " << rankLabel(A, int(T)) << " (pid " << Tr.Pid << ", " << Ops
       << (Ops == 1 ? " operation): " : " operations): ");
    std::string Blocked = blockedText(In, int(T), End);
    if (!Blocked.empty())
      OS << Blocked << "; ";
    OS << End.Text << "\n";
  }

  if (!A.Comms.empty()) {
    OS << "communicators:\n";
    for (const CommSummary &C : A.Comms) {
      OS << "  " << commName(C.Id) << " " << apiName(C.ApiId) << ", " << C.Size
         << " ranks";
      if (C.Created.Rec && C.Created.Rec->Op != OpCode::None)
        OS << ", created by " << C.Created.Rec->info().Name << " at "
           << In.S.where(C.Created.Trace, *C.Created.Rec);
      OS << ": " << C.Agreed << " collective(s) agreed on all ranks\n";
    }
  }

  // Host synchronizations per call-site and rank.
  std::map<std::pair<std::string, std::string>, std::map<int, uint64_t>> Syncs;
  for (size_t T = 0; T < A.Traces.size(); ++T)
    for (const SyncCount &C : A.Traces[T].Syncs)
      if (opInfo(C.Op).Category == OpCategory::DeviceSync) // Not backward().
        Syncs[{In.S.where(int(T), C.Site), opInfo(C.Op).Name}]
             [A.rankOf(int(T))] += C.Count;
  if (!Syncs.empty()) {
    OS << "host synchronizations (calls per call-site and rank):\n";
    for (const auto &[Site, PerRank] : Syncs) {
      OS << "  " << Site.first << " " << Site.second << ":";
      for (size_t T = 0; T < A.Traces.size(); ++T) {
        auto It = PerRank.find(A.rankOf(int(T)));
        OS << (T ? ", rank " : " rank ") << A.rankOf(int(T)) << " "
           << (It == PerRank.end() ? 0 : It->second) << "x";
      }
      OS << "\n";
    }
  }

  if (In.Join) {
    OS << "\nstatic findings (" << In.FindingsPath << "):\n";
    for (const JoinedFinding &J : In.Join->Findings) {
      std::string Verdict = verdictName(J.Result);
      Verdict.resize(18, ' ');
      OS << "  " << Verdict << displayPath(J.Finding.File) << ":"
         << J.Finding.Line << ": [" << J.Finding.Rule << "] "
         << J.Finding.Message << "\n";
      OS << "  " << std::string(18, ' ') << J.Evidence;
      if (J.ViaNote)
        OS << " (matched at a note's line)";
      OS << "\n";
    }
    if (!In.Join->RuntimeOnly.empty()) {
      OS << "runtime-only problems (no static finding predicted them):\n";
      for (const RuntimeProblem &P : In.Join->RuntimeOnly)
        OS << "  " << P.Kind << ": " << P.Summary << "\n";
    }
  }

  writePythonChecksText(OS, A, In.S);

  for (const std::string &N : A.Notes)
    OS << "note: " << N << "\n";

  OS << "\nresult: ";
  if (A.clean()) {
    OS << "no divergence and no hang\n";
    return;
  }
  std::vector<std::string> What;
  if (!A.Divergences.empty())
    What.push_back(std::to_string(A.Divergences.size()) + " divergence(s)");
  if (!A.Hangs.empty())
    What.push_back(std::to_string(A.Hangs.size()) + " hang report(s)");
  if (!A.P2P.empty())
    What.push_back(std::to_string(A.P2P.size()) +
                   " unpaired point-to-point exchange(s)");
  if (!A.AsyncErrors.empty())
    What.push_back("asynchronous NCCL errors");
  if (A.anyRankFailed())
    What.push_back("a rank failed");
  if (!A.PythonDefects.empty())
    What.push_back(std::to_string(A.PythonDefects.size()) +
                   " Python finding(s)");
  if (What.empty())
    What.push_back("the watchdog aborted a communicator");
  OS << joinList(What) << "\n";
}

} // namespace rt
} // namespace distlint
