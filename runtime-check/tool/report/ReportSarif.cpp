//===- ReportSarif.cpp - distlint-rt report as SARIF 2.1.0 ----------------===//
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
