//===- ReportSarif.cpp - distlint-rt report as SARIF 2.1.0 ----------------===//
#include "ReportShared.h"

#include <nlohmann/json.hpp>

namespace distlint {
namespace rt {

using nlohmann::json;

namespace {

json sarifLocation(const ReportLocation &L, const std::string &Msg) {
  json Loc;
  if (L.Known) {
    const std::string &Path = L.DisplayFile;
    bool Relative = !Path.empty() && Path[0] != '/';
    json Artifact = {{"uri", Relative ? Path : "file://" + Path}};
    if (Relative)
      Artifact["uriBaseId"] = "SRCROOT";
    Loc["physicalLocation"] = {{"artifactLocation", Artifact},
                               {"region", {{"startLine", L.Primary.Line}}}};
  }
  if (!Msg.empty())
    Loc["message"] = {{"text", Msg}};
  return Loc;
}

} // namespace

void writeSarifReport(std::ostream &OS, const ReportModel &M) {
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
  for (const ReportDivergence &D : M.Divergences) {
    if (D.Issued.empty())
      continue;
    std::string Text = "communicator " + D.CommName +
                       " diverged at collective #" + std::to_string(D.Seq) +
                       ": " + std::to_string(D.Issued.size()) +
                       " rank(s) issued " + D.Issued[0].Description;
    if (!D.MissingCommRanks.empty())
      Text += ", " + std::to_string(D.MissingCommRanks.size()) + " did not";
    if (!D.Differs.empty())
      Text += "; they disagree on " + joinList(D.Differs);
    json Related = json::array();
    for (size_t K = 1; K < D.Issued.size(); ++K)
      Related.push_back(sarifLocation(
          D.Issued[K].Loc, "rank " + std::to_string(D.Issued[K].Rank) + ": " +
                               D.Issued[K].Description));
    for (const ReportMissingMember &Member : D.Missing)
      if (Member.LastBefore)
        Related.push_back(
            sarifLocation(Member.LastBefore->Loc,
                          "rank " + std::to_string(Member.LastBefore->Rank) +
                              ": last collective before the divergence"));
    json R = {{"ruleId", "distlint-rt-divergence"},
              {"level", "error"},
              {"message", {{"text", Text}}},
              {"locations", json::array({sarifLocation(D.Issued[0].Loc, "")})},
              {"relatedLocations", Related}};
    Results.push_back(R);
  }
  for (const ReportHang &H : M.Hangs) {
    const ReportOp &What = H.BlockedAt ? *H.BlockedAt : H.Pending.front();
    std::string Text = "rank " + std::to_string(H.Rank) + ": " + What.Name +
                       " did not complete within the watchdog timeout";
    Results.push_back(
        {{"ruleId", "distlint-rt-hang"},
         {"level", "error"},
         {"message", {{"text", Text}}},
         {"locations", json::array({sarifLocation(What.Loc, "")})}});
  }
  for (const ReportP2P &P : M.P2P) {
    std::string Text = "rank " + std::to_string(P.From) + " sent " +
                       std::to_string(P.Sends) + " message(s) to rank " +
                       std::to_string(P.To) + ", which received " +
                       std::to_string(P.Recvs);
    const std::optional<ReportOp> &Op = P.LastSend ? P.LastSend : P.LastRecv;
    if (!Op)
      continue;
    Results.push_back(
        {{"ruleId", "distlint-rt-p2p"},
         {"level", "error"},
         {"message", {{"text", Text}}},
         {"locations", json::array({sarifLocation(Op->Loc, "")})}});
  }
  json Run = {{"tool",
               {{"driver",
                 {{"name", "distlint-rt"},
                  {"version", DISTLINT_VERSION},
                  {"informationUri", "https://github.com/distlint/distlint"},
                  {"rules", Rules}}}}},
              {"results", Results},
              {"originalUriBaseIds",
               {{"SRCROOT", {{"uri", "file://" + M.WorkingDir + "/"}}}}}};
  json Log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({Run})}};
  OS << Log.dump(2) << "\n";
}

} // namespace rt
} // namespace distlint
