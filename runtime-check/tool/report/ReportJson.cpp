//===- ReportJson.cpp - distlint-rt report as JSON ------------------------===//
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

} // namespace rt
} // namespace distlint
