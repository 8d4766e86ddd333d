//===- ReportWriter.cpp - distlint-rt report in text, JSON, SARIF
//----------===//
#include "ReportWriter.h"
#include "PythonChecks.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#ifndef DISTLINT_VERSION
#define DISTLINT_VERSION "0"
#endif

namespace distlint {
namespace rt {

using nlohmann::json;

bool parseReportFormat(const std::string &Text, ReportFormat &Out) {
  if (Text == "text")
    Out = ReportFormat::Text;
  else if (Text == "json")
    Out = ReportFormat::Json;
  else if (Text == "sarif")
    Out = ReportFormat::Sarif;
  else
    return false;
  return true;
}

int reportExitCode(const Analysis &A) { return A.clean() ? 0 : 1; }

namespace {

const char *apiName(Api A) {
  switch (A) {
  case Api::Nccl:
    return "NCCL";
  case Api::Mpi:
    return "MPI";
  case Api::Cuda:
    return "CUDA";
  case Api::C10d:
    return "c10d process group";
  default:
    return "?";
  }
}

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

const char *liveKindName(MismatchKind K) {
  switch (K) {
  case MismatchKind::Fingerprint:
    return "fingerprint";
  case MismatchKind::MovedOn:
    return "moved-on";
  case MismatchKind::CrossWait:
    return "cross-wait";
  }
  return "unknown";
}

std::string rankLabel(const Analysis &A, int Trace) {
  const RankTrace &T = A.Traces[size_t(Trace)];
  return T.Rank >= 0 ? "rank " + std::to_string(T.Rank)
                     : "pid " + std::to_string(T.Pid);
}

std::string joinList(const std::vector<std::string> &Items) {
  std::string S;
  for (size_t I = 0; I < Items.size(); ++I)
    S += (I == 0 ? "" : I + 1 == Items.size() ? " and " : ", ") + Items[I];
  return S;
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

// ---- JSON
// ---------------------------------------------------------------------------------

namespace {

const char *pythonHowName(PythonSiteKind How) {
  return How == PythonSiteKind::Backward      ? "backward"
         : How == PythonSiteKind::OtherThread ? "backward-thread"
                                              : "call";
}

json locationJson(const ReportInput &In, int Trace, const Record &R) {
  json J = json::object();
  SourceLoc L = In.S.primary(Trace, R);
  if (L.known()) {
    J["file"] = normalizePath(L.File);
    J["line"] = L.Line;
    J["function"] = L.Function;
  } else {
    J["where"] = In.S.where(Trace, R);
  }
  PythonSiteKind How;
  if (In.S.python(Trace, R.Frames[0], &How)) {
    // The Python line, how it issued the call, and the native frame beside.
    J["python"] = pythonHowName(How);
    if (frameValid(R.Frames[1]))
      J["native"] = In.S.where(Trace, R.Frames[1]);
  }
  return J;
}

json opJson(const ReportInput &In, const RankOp &Op) {
  const Record &R = *Op.Rec;
  json J = locationJson(In, Op.Trace, R);
  J["rank"] = In.A.rankOf(Op.Trace);
  J["comm_rank"] = R.CommRank;
  J["op"] = R.info().Name;
  J["description"] = describeOp(R);
  J["seq"] = R.Seq;
  J["count"] = R.Count;
  if (R.DataType >= 0)
    J["datatype"] = dataTypeName(R.ApiId, R.DataType);
  if (R.RedOp >= 0)
    J["reduction"] = redOpName(R.ApiId, R.RedOp);
  J["peer"] = R.Peer;
  J["completed"] = R.has(StateCompleted);
  json Frames = json::array();
  for (const SourceLoc &L : In.S.locations(Op.Trace, R))
    Frames.push_back({{"file", normalizePath(L.File)},
                      {"line", L.Line},
                      {"function", L.Function}});
  J["frames"] = Frames;
  return J;
}

} // namespace

void writeJsonReport(std::ostream &OS, const ReportInput &In) {
  const Analysis &A = In.A;
  json J;
  J["tool"] = {{"name", "distlint-rt"}, {"version", DISTLINT_VERSION}};
  J["trace_dir"] = In.TraceDir;
  J["clean"] = A.clean();
  J["ranks"] = json::array();
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    RankEnd End = A.rankEnd(int(T));
    json R = {{"rank", Tr.Rank},       {"pid", Tr.Pid},   {"host", Tr.Host},
              {"program", Tr.Program}, {"end", End.Text}, {"trace", Tr.Path}};
    if (End.BlockedIn)
      R["blocked_in"] = opJson(In, {int(T), End.BlockedIn});
    J["ranks"].push_back(R);
  }
  J["communicators"] = json::array();
  for (const CommSummary &C : A.Comms)
    J["communicators"].push_back({{"id", commName(C.Id)},
                                  {"api", apiName(C.ApiId)},
                                  {"size", C.Size},
                                  {"agreed", C.Agreed}});
  J["divergences"] = json::array();
  for (size_t I = 0; I < A.Divergences.size(); ++I) {
    const Divergence &D = A.Divergences[I];
    json X = {{"first", I == 0},
              {"communicator", commName(D.CommId)},
              {"seq", D.Seq},
              {"kind", D.Seq == 0                   ? "never-joined"
                       : D.MissingCommRanks.empty() ? "mismatch"
                                                    : "missing-ranks"},
              {"differs", D.Differs}};
    X["issued"] = json::array();
    for (const RankOp &Op : D.Issued)
      X["issued"].push_back(opJson(In, Op));
    X["missing"] = json::array();
    const CommSummary *C = A.comm(D.CommId);
    for (int CommRank : D.MissingCommRanks) {
      json M = {{"comm_rank", CommRank}};
      int Trace = C && CommRank < int(C->Members.size())
                      ? C->Members[size_t(CommRank)]
                      : -1;
      if (Trace >= 0) {
        M["rank"] = A.rankOf(Trace);
        RankEnd End = A.rankEnd(Trace);
        M["end"] = End.Text;
        if (End.BlockedIn)
          M["blocked_in"] = opJson(In, {Trace, End.BlockedIn});
        if (End.LastCall)
          M["last_call"] = opJson(In, {Trace, End.LastCall});
        auto Last = D.LastBefore.find(CommRank);
        if (Last != D.LastBefore.end())
          M["last"] = opJson(In, Last->second);
      }
      X["missing"].push_back(M);
    }
    if (D.SplitSeq) {
      X["split_seq"] = D.SplitSeq;
      X["split"] = json::array();
      for (const RankOp &Op : D.SplitOps)
        X["split"].push_back(opJson(In, Op));
    }
    J["divergences"].push_back(X);
  }
  J["live"] = json::array();
  for (const RankOp &E : A.LiveMismatches)
    J["live"].push_back(
        {{"rank", A.rankOf(E.Trace)},
         {"peer", E.Rec->Peer},
         {"communicator", commName(E.Rec->CommId)},
         {"collective", E.Rec->Seq},
         {"kind", liveKindName(MismatchKind(E.Rec->Tag))},
         {"latency_seconds", double(E.Rec->EndNs - E.Rec->StartNs) / 1e9}});
  J["hangs"] = json::array();
  for (const HangReport &H : A.Hangs) {
    json X = {{"rank", A.rankOf(H.Trace)}};
    if (H.BlockedAt) {
      X["blocked_in"] = H.BlockedAt->Kind == RecordKind::Op
                            ? opJson(In, {H.Trace, H.BlockedAt})
                            : locationJson(In, H.Trace, *H.BlockedAt);
      X["blocked_in"]["op"] = H.BlockedAt->info().Name;
      X["blocked_seconds"] = double(H.BlockedNs) / 1e9;
    }
    X["pending"] = json::array();
    for (const Record *O : H.Pending)
      X["pending"].push_back(opJson(In, {H.Trace, O}));
    J["hangs"].push_back(X);
  }
  J["p2p"] = json::array();
  for (const P2PIssue &P : A.P2P) {
    json X = {{"communicator", commName(P.CommId)},
              {"from", P.From},
              {"to", P.To},
              {"sends", P.Sends},
              {"recvs", P.Recvs},
              {"detail", P.Detail}};
    if (P.LastSend.Rec)
      X["last_send"] = opJson(In, P.LastSend);
    if (P.LastRecv.Rec)
      X["last_recv"] = opJson(In, P.LastRecv);
    J["p2p"].push_back(X);
  }
  // Operations per call-site and rank (where the program issued what).
  std::map<std::tuple<std::string, unsigned, std::string>,
           std::map<int, uint64_t>>
      Sites;
  std::map<std::tuple<std::string, unsigned, std::string>,
           std::map<int, uint64_t>>
      Untracked;
  using SiteKey = std::tuple<std::string, unsigned, std::string>;
  std::map<SiteKey, std::set<std::string>> PythonHow; ///< How lines issued.
  for (size_t T = 0; T < A.Traces.size(); ++T)
    for (const Record &R : A.Traces[T].Records) {
      if (R.Kind != RecordKind::Op && R.Kind != RecordKind::CommCreate)
        continue;
      SourceLoc L = In.S.primary(int(T), R);
      auto Key = std::make_tuple(L.known() ? normalizePath(L.File)
                                           : In.S.where(int(T), R),
                                 L.Line, std::string(R.info().Name));
      PythonSiteKind How;
      if (In.S.python(int(T), R.Frames[0], &How))
        PythonHow[Key].insert(pythonHowName(How));
      ++Sites[Key][A.rankOf(int(T))];
      if (R.has(StateUntracked) || R.has(StateCaptured))
        ++Untracked[Key][A.rankOf(int(T))];
    }
  J["sites"] = json::array();
  for (const auto &[Key, PerRank] : Sites) {
    json Counts = json::object(), NotWatched = json::object();
    for (const auto &[Rank, N] : PerRank)
      Counts[std::to_string(Rank)] = N;
    for (const auto &[Rank, N] : Untracked[Key])
      NotWatched[std::to_string(Rank)] = N;
    json X = {{"file", std::get<0>(Key)},
              {"line", std::get<1>(Key)},
              {"op", std::get<2>(Key)},
              {"counts", Counts},
              {"completion_not_observed", NotWatched}};
    if (PythonHow.count(Key))
      X["python"] = PythonHow[Key];
    J["sites"].push_back(X);
  }
  J["syncs"] = json::array();
  for (size_t T = 0; T < A.Traces.size(); ++T)
    for (const SyncCount &C : A.Traces[T].Syncs) {
      if (opInfo(C.Op).Category != OpCategory::DeviceSync)
        continue; // backward() calls: the steps of python_checks.
      json X = {{"rank", A.rankOf(int(T))},
                {"op", opInfo(C.Op).Name},
                {"count", C.Count},
                {"total_seconds", double(C.TotalNs) / 1e9}};
      std::vector<SourceLoc> Chain = In.S.frame(int(T), C.Site);
      if (!Chain.empty()) {
        X["file"] = normalizePath(Chain.front().File);
        X["line"] = Chain.front().Line;
      } else {
        X["where"] = In.S.where(int(T), C.Site);
      }
      J["syncs"].push_back(X);
    }
  if (In.Join) {
    J["findings"] = json::array();
    for (const JoinedFinding &F : In.Join->Findings) {
      json Counts = json::object();
      for (const auto &[Rank, N] : F.Counts)
        Counts[std::to_string(Rank)] = N;
      J["findings"].push_back({{"rule", F.Finding.Rule},
                               {"file", F.Finding.File},
                               {"line", F.Finding.Line},
                               {"message", F.Finding.Message},
                               {"fingerprint", F.Finding.Fingerprint},
                               {"verdict", verdictName(F.Result)},
                               {"evidence", F.Evidence},
                               {"matched_note", F.ViaNote},
                               {"counts", Counts}});
    }
    J["runtime_only"] = json::array();
    for (const RuntimeProblem &P : In.Join->RuntimeOnly)
      J["runtime_only"].push_back({{"kind", P.Kind}, {"summary", P.Summary}});
  }
  J["python_checks"] = pythonChecksJson(A, In.S);
  J["notes"] = A.Notes;
  OS << J.dump(2) << "\n";
}

// ---- SARIF
// --------------------------------------------------------------------------------

namespace {

json sarifLocation(const ReportInput &In, int Trace, const Record &R,
                   const std::string &Msg) {
  SourceLoc L = In.S.primary(Trace, R);
  json Loc;
  if (L.known()) {
    std::string Path = displayPath(L.File);
    bool Relative = !Path.empty() && Path[0] != '/';
    json Artifact = {{"uri", Relative ? Path : "file://" + Path}};
    if (Relative)
      Artifact["uriBaseId"] = "SRCROOT";
    Loc["physicalLocation"] = {{"artifactLocation", Artifact},
                               {"region", {{"startLine", L.Line}}}};
  }
  if (!Msg.empty())
    Loc["message"] = {{"text", Msg}};
  return Loc;
}

} // namespace

void writeSarifReport(std::ostream &OS, const ReportInput &In) {
  const Analysis &A = In.A;
  json Rules = json::array(
      {{{"id", "distlint-rt-divergence"},
        {"shortDescription", {{"text", "Ranks issued different collectives"}}},
        {"fullDescription",
         {{"text",
           "In this run the members of a communicator did not issue the same "
           "sequence of collective operations: some were missing, or the "
           "operation, count, datatype, reduction or root differed."}}},
        {"help",
         {{"text",
           "Make every rank reach the collective the same number of times, in "
           "the "
           "same order and with the same arguments: move it out of "
           "rank-dependent "
           "branches and early exits, or guard it with a condition all ranks "
           "agree "
           "on. Run distlint on the file to find the branch statically."},
          {"markdown",
           "Make every rank reach the collective the same number of times, in "
           "the same order and with the same arguments: move it out of "
           "rank-dependent branches and early exits, or guard it with a "
           "condition all ranks agree on. `distlint` finds such branches "
           "statically (rule `distlint-rank-divergent-collective`)."}}},
        {"defaultConfiguration", {{"level", "error"}}}},
       {{"id", "distlint-rt-hang"},
        {"shortDescription",
         {{"text", "Operation pending past the watchdog timeout"}}},
        {"fullDescription",
         {{"text",
           "An operation did not complete within DISTLINT_RT_TIMEOUT."}}},
        {"help",
         {{"text",
           "A rank waited longer than DISTLINT_RT_TIMEOUT for a collective or "
           "message its peers never matched. The divergence result names where "
           "the "
           "ranks went apart; raise DISTLINT_RT_TIMEOUT if the operation is "
           "merely "
           "slow."},
          {"markdown",
           "A rank waited longer than `DISTLINT_RT_TIMEOUT` for a collective "
           "or "
           "message its peers never matched. The divergence result names where "
           "the ranks went apart; raise `DISTLINT_RT_TIMEOUT` if the operation "
           "is merely slow."}}},
        {"defaultConfiguration", {{"level", "error"}}}},
       {{"id", "distlint-rt-p2p"},
        {"shortDescription",
         {{"text", "Point-to-point messages that do not pair up"}}},
        {"fullDescription",
         {{"text",
           "Sends and receives between two ranks did not match in number or "
           "size."}}},
        {"help",
         {{"text", "Every send needs a matching receive on the peer, with the "
                   "same count "
                   "and datatype; check rank-dependent loops and early exits "
                   "around them."},
          {"markdown",
           "Every send needs a matching receive on the peer, with the same "
           "count and datatype; check rank-dependent loops and early exits "
           "around them."}}},
        {"defaultConfiguration", {{"level", "error"}}}}});
  json Results = json::array();
  for (size_t I = 0; I < A.Divergences.size(); ++I) {
    const Divergence &D = A.Divergences[I];
    if (D.Issued.empty())
      continue;
    std::string Text = "communicator " + commName(D.CommId) +
                       " diverged at collective #" + std::to_string(D.Seq) +
                       ": " + std::to_string(D.Issued.size()) +
                       " rank(s) issued " + describeOp(*D.Issued[0].Rec);
    if (!D.MissingCommRanks.empty())
      Text += ", " + std::to_string(D.MissingCommRanks.size()) + " did not";
    if (!D.Differs.empty())
      Text += "; they disagree on " + joinList(D.Differs);
    json Related = json::array();
    for (size_t K = 1; K < D.Issued.size(); ++K)
      Related.push_back(
          sarifLocation(In, D.Issued[K].Trace, *D.Issued[K].Rec,
                        "rank " + std::to_string(A.rankOf(D.Issued[K].Trace)) +
                            ": " + describeOp(*D.Issued[K].Rec)));
    for (const auto &[CommRank, Op] : D.LastBefore)
      Related.push_back(
          sarifLocation(In, Op.Trace, *Op.Rec,
                        "rank " + std::to_string(A.rankOf(Op.Trace)) +
                            ": last collective before the divergence"));
    json R = {{"ruleId", "distlint-rt-divergence"},
              {"level", "error"},
              {"message", {{"text", Text}}},
              {"locations", json::array({sarifLocation(In, D.Issued[0].Trace,
                                                       *D.Issued[0].Rec, "")})},
              {"relatedLocations", Related}};
    Results.push_back(R);
  }
  for (const HangReport &H : A.Hangs) {
    const Record &What = H.BlockedAt ? *H.BlockedAt : *H.Pending.front();
    std::string Text = "rank " + std::to_string(A.rankOf(H.Trace)) + ": " +
                       What.info().Name +
                       " did not complete within the watchdog timeout";
    Results.push_back(
        {{"ruleId", "distlint-rt-hang"},
         {"level", "error"},
         {"message", {{"text", Text}}},
         {"locations", json::array({sarifLocation(In, H.Trace, What, "")})}});
  }
  for (const P2PIssue &P : A.P2P) {
    std::string Text = "rank " + std::to_string(P.From) + " sent " +
                       std::to_string(P.Sends) + " message(s) to rank " +
                       std::to_string(P.To) + ", which received " +
                       std::to_string(P.Recvs);
    const RankOp &Op = P.LastSend.Rec ? P.LastSend : P.LastRecv;
    if (!Op.Rec)
      continue;
    Results.push_back(
        {{"ruleId", "distlint-rt-p2p"},
         {"level", "error"},
         {"message", {{"text", Text}}},
         {"locations",
          json::array({sarifLocation(In, Op.Trace, *Op.Rec, "")})}});
  }
  json Run = {{"tool",
               {{"driver",
                 {{"name", "distlint-rt"},
                  {"version", DISTLINT_VERSION},
                  {"informationUri", "https://github.com/distlint/distlint"},
                  {"rules", Rules}}}}},
              {"results", Results},
              {"originalUriBaseIds",
               {{"SRCROOT", {{"uri", "file://" + normalizePath(".") + "/"}}}}}};
  json Log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({Run})}};
  OS << Log.dump(2) << "\n";
}

} // namespace rt
} // namespace distlint
