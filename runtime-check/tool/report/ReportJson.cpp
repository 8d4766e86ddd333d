//===- ReportJson.cpp - distlint-rt report as JSON ------------------------===//
#include "ReportShared.h"

#include <nlohmann/json.hpp>

namespace distlint {
namespace rt {

using nlohmann::json;

namespace {

json locationJson(const ReportLocation &L) {
  json J = json::object();
  if (L.Known) {
    J["file"] = L.Primary.File;
    J["line"] = L.Primary.Line;
    J["function"] = L.Primary.Function;
  } else {
    J["where"] = L.Where;
  }
  if (!L.Python.empty()) {
    // The Python line, how it issued the call, and the native frame beside.
    J["python"] = L.Python;
    if (L.Native)
      J["native"] = *L.Native;
  }
  return J;
}

json opJson(const ReportOp &Op) {
  json J = locationJson(Op.Loc);
  J["rank"] = Op.Rank;
  J["comm_rank"] = Op.CommRank;
  J["op"] = Op.Name;
  J["description"] = Op.Description;
  J["seq"] = Op.Seq;
  J["count"] = Op.Count;
  if (Op.DataType)
    J["datatype"] = *Op.DataType;
  if (Op.Reduction)
    J["reduction"] = *Op.Reduction;
  J["peer"] = Op.Peer;
  J["completed"] = Op.Completed;
  json Frames = json::array();
  for (const ReportFrame &F : Op.Frames)
    Frames.push_back(
        {{"file", F.File}, {"line", F.Line}, {"function", F.Function}});
  J["frames"] = Frames;
  return J;
}

/// Global rank -> count, with the ranks as keys.
json countsJson(const std::map<int, uint64_t> &Counts) {
  json J = json::object();
  for (const auto &[Rank, N] : Counts)
    J[std::to_string(Rank)] = N;
  return J;
}

const char *divergenceKindName(DivergenceKind K) {
  switch (K) {
  case DivergenceKind::NeverJoined:
    return "never-joined";
  case DivergenceKind::Mismatch:
    return "mismatch";
  case DivergenceKind::MissingRanks:
    return "missing-ranks";
  }
  return "unknown";
}

json divergenceJson(const ReportDivergence &D, bool First) {
  json X = {{"first", First},
            {"communicator", D.CommName},
            {"seq", D.Seq},
            {"kind", divergenceKindName(D.Kind)},
            {"differs", D.Differs}};
  X["issued"] = json::array();
  for (const ReportOp &Op : D.Issued)
    X["issued"].push_back(opJson(Op));
  X["missing"] = json::array();
  for (const ReportMissingMember &M : D.Missing) {
    json Member = {{"comm_rank", M.CommRank}};
    if (M.HasTrace) {
      Member["rank"] = M.Rank;
      Member["end"] = M.End;
      if (M.BlockedIn)
        Member["blocked_in"] = opJson(*M.BlockedIn);
      if (M.LastCall)
        Member["last_call"] = opJson(*M.LastCall);
      if (M.LastBefore)
        Member["last"] = opJson(*M.LastBefore);
    }
    X["missing"].push_back(Member);
  }
  if (D.SplitSeq) {
    X["split_seq"] = D.SplitSeq;
    X["split"] = json::array();
    for (const ReportOp &Op : D.Split)
      X["split"].push_back(opJson(Op));
  }
  return X;
}

json hangJson(const ReportHang &H) {
  json X = {{"rank", H.Rank}};
  if (H.BlockedAt) {
    // A watchdog's Hang record (a host wait) is a place, not an operation.
    X["blocked_in"] = H.BlockedAt->IsOp ? opJson(*H.BlockedAt)
                                        : locationJson(H.BlockedAt->Loc);
    X["blocked_in"]["op"] = H.BlockedAt->Name;
    X["blocked_seconds"] = double(H.BlockedNs) / 1e9;
  }
  X["pending"] = json::array();
  for (const ReportOp &Op : H.Pending)
    X["pending"].push_back(opJson(Op));
  return X;
}

json p2pJson(const ReportP2P &P) {
  json X = {
      {"communicator", P.CommName}, {"from", P.From},   {"to", P.To},
      {"sends", P.Sends},           {"recvs", P.Recvs}, {"detail", P.Detail}};
  if (P.LastSend)
    X["last_send"] = opJson(*P.LastSend);
  if (P.LastRecv)
    X["last_recv"] = opJson(*P.LastRecv);
  return X;
}

json siteJson(const ReportSite &S) {
  json X = {{"file", S.File},
            {"line", S.Line},
            {"op", S.Op},
            {"counts", countsJson(S.Counts)},
            {"completion_not_observed", countsJson(S.CompletionNotObserved)}};
  if (!S.Python.empty())
    X["python"] = S.Python;
  return X;
}

json syncJson(const ReportSync &S) {
  json X = {{"rank", S.Rank},
            {"op", S.Op},
            {"count", S.Count},
            {"total_seconds", double(S.TotalNs) / 1e9}};
  if (S.Known) {
    X["file"] = S.File;
    X["line"] = S.Line;
  } else {
    X["where"] = S.Where;
  }
  return X;
}

json pythonCheckJson(const ReportPythonCheck &P) {
  json J = {{"check", P.Check},
            {"rank", P.Rank},
            {"defect", P.Defect},
            {"call", P.Call},
            {"message", P.Message}};
  if (!P.Torch.empty())
    J["torch"] = P.Torch;
  if (P.Site) {
    J["file"] = P.Site->File;
    J["line"] = P.Site->Line;
    J["function"] = P.Site->Function;
  }
  if (P.Epoch >= 0)
    J["epoch"] = P.Epoch;
  if (P.DefaultSeconds >= 0)
    J["default_seconds"] = P.DefaultSeconds;
  if (!P.Backend.empty())
    J["backend"] = P.Backend;
  if (!P.Defect) {
    J["count"] = P.Count;
    J["steps"] = P.Steps;
  }
  return J;
}

} // namespace

void writeJsonReport(std::ostream &OS, const ReportModel &M) {
  json J;
  J["tool"] = {{"name", "distlint-rt"}, {"version", DISTLINT_VERSION}};
  J["trace_dir"] = M.TraceDir;
  J["clean"] = M.Clean;
  J["ranks"] = json::array();
  for (const ReportRank &R : M.Ranks) {
    json X = {{"rank", R.Rank},       {"pid", R.Pid}, {"host", R.Host},
              {"program", R.Program}, {"end", R.End}, {"trace", R.TracePath}};
    if (R.BlockedIn)
      X["blocked_in"] = opJson(*R.BlockedIn);
    J["ranks"].push_back(X);
  }
  J["communicators"] = json::array();
  for (const ReportCommunicator &C : M.Communicators)
    J["communicators"].push_back({{"id", C.Name},
                                  {"api", C.ApiName},
                                  {"size", C.Size},
                                  {"agreed", C.Agreed}});
  J["divergences"] = json::array();
  for (size_t I = 0; I < M.Divergences.size(); ++I)
    J["divergences"].push_back(divergenceJson(M.Divergences[I], I == 0));
  J["live"] = json::array();
  for (const ReportLiveMismatch &E : M.LiveMismatches)
    J["live"].push_back({{"rank", E.Rank},
                         {"peer", E.Peer},
                         {"communicator", E.CommName},
                         {"collective", E.Seq},
                         {"kind", liveKindName(E.Kind)},
                         {"latency_seconds", double(E.LatencyNs) / 1e9}});
  J["hangs"] = json::array();
  for (const ReportHang &H : M.Hangs)
    J["hangs"].push_back(hangJson(H));
  J["p2p"] = json::array();
  for (const ReportP2P &P : M.P2P)
    J["p2p"].push_back(p2pJson(P));
  J["sites"] = json::array();
  for (const ReportSite &S : M.Sites)
    J["sites"].push_back(siteJson(S));
  J["syncs"] = json::array();
  for (const ReportSync &S : M.Syncs)
    J["syncs"].push_back(syncJson(S));
  if (M.HaveFindings) {
    J["findings"] = json::array();
    for (const ReportFinding &F : M.Findings)
      J["findings"].push_back({{"rule", F.Rule},
                               {"file", F.File},
                               {"line", F.Line},
                               {"message", F.Message},
                               {"fingerprint", F.Fingerprint},
                               {"verdict", F.Verdict},
                               {"evidence", F.Evidence},
                               {"matched_note", F.ViaNote},
                               {"counts", countsJson(F.Counts)}});
    J["runtime_only"] = json::array();
    for (const ReportRuntimeOnly &P : M.RuntimeOnly)
      J["runtime_only"].push_back({{"kind", P.Kind}, {"summary", P.Summary}});
  }
  J["python_checks"] = json::array();
  for (const ReportPythonCheck &P : M.PythonChecks)
    J["python_checks"].push_back(pythonCheckJson(P));
  J["notes"] = M.Notes;
  OS << J.dump(2) << "\n";
}

} // namespace rt
} // namespace distlint
