//===- ReportModel.cpp - Resolve the report once for every format ---------===//
#include "ReportModel.h"

#include "PythonChecks.h"
#include "ReportShared.h"

#include <algorithm>
#include <tuple>

namespace distlint {
namespace rt {

namespace {

const char *pythonHowName(PythonSiteKind How) {
  return How == PythonSiteKind::Backward      ? "backward"
         : How == PythonSiteKind::OtherThread ? "backward-thread"
                                              : "call";
}

ReportFrame frameOf(const SourceLoc &L) {
  return {normalizePath(L.File), L.Line, L.Function};
}

/// Resolves what the renderers say about the analysis' records.
class ModelBuilder {
public:
  explicit ModelBuilder(const ReportInput &In) : In(In), A(In.A), S(In.S) {}

  ReportModel build();

private:
  const ReportInput &In;
  const Analysis &A;
  const Sites &S;

  std::string rankLabel(int Trace) const {
    const RankTrace &T = A.Traces[size_t(Trace)];
    return T.Rank >= 0 ? "rank " + std::to_string(T.Rank)
                       : "pid " + std::to_string(T.Pid);
  }
  std::string commLabel(uint64_t Id) const;
  ReportLocation location(int Trace, const Record &R) const;
  ReportOp op(int Trace, const Record &R) const;
  ReportOp op(const RankOp &Op) const { return op(Op.Trace, *Op.Rec); }
  std::optional<ReportOp> opIf(int Trace, const Record *R) const {
    return R ? std::optional<ReportOp>(op(Trace, *R)) : std::nullopt;
  }
  ReportDivergence divergence(const Divergence &D) const;
  ReportHang hang(const HangReport &H) const;
  ReportP2P p2p(const P2PIssue &P) const;
  void addRanks(ReportModel &M) const;
  void addSites(ReportModel &M) const;
  void addSyncs(ReportModel &M) const;
  void addJoin(ReportModel &M) const;
  void addPythonChecks(ReportModel &M) const;
  std::vector<std::string> problemSummary() const;
};

std::string ModelBuilder::commLabel(uint64_t Id) const {
  const CommSummary *C = A.comm(Id);
  std::string Label = "communicator " + commName(Id);
  if (C)
    Label += std::string(" (") + apiName(C->ApiId) + ", " +
             std::to_string(C->Size) + " ranks)";
  return Label;
}

ReportLocation ModelBuilder::location(int Trace, const Record &R) const {
  ReportLocation Loc;
  SourceLoc L = S.primary(Trace, R);
  Loc.Known = L.known();
  if (Loc.Known) {
    Loc.Primary = frameOf(L);
    Loc.DisplayFile = displayPath(L.File);
  }
  Loc.Where = S.where(Trace, R);
  Loc.WhereWithCaller = S.whereWithCaller(Trace, R);
  PythonSiteKind How;
  if (S.python(Trace, R.Frames[0], &How)) {
    Loc.Python = pythonHowName(How);
    if (frameValid(R.Frames[1]))
      Loc.Native = S.where(Trace, R.Frames[1]);
  }
  return Loc;
}

ReportOp ModelBuilder::op(int Trace, const Record &R) const {
  ReportOp Op;
  Op.Rank = A.rankOf(Trace);
  Op.RankLabel = rankLabel(Trace);
  Op.CommRank = R.CommRank;
  Op.Name = R.info().Name;
  Op.Description = describeOp(R);
  Op.IsOp = R.Kind == RecordKind::Op;
  Op.IsCollective = R.info().Category == OpCategory::Collective;
  Op.Seq = R.Seq;
  Op.Count = R.Count;
  if (R.DataType >= 0)
    Op.DataType = dataTypeName(R.ApiId, R.DataType);
  if (R.RedOp >= 0)
    Op.Reduction = redOpName(R.ApiId, R.RedOp);
  Op.Peer = R.Peer;
  Op.Completed = R.has(StateCompleted);
  Op.Loc = location(Trace, R);
  for (const SourceLoc &L : S.locations(Trace, R))
    Op.Frames.push_back(frameOf(L));
  return Op;
}

ReportDivergence ModelBuilder::divergence(const Divergence &D) const {
  ReportDivergence X;
  X.CommName = commName(D.CommId);
  X.CommLabel = commLabel(D.CommId);
  X.Seq = D.Seq;
  X.Kind = D.Seq == 0                   ? DivergenceKind::NeverJoined
           : D.MissingCommRanks.empty() ? DivergenceKind::Mismatch
                                        : DivergenceKind::MissingRanks;
  X.Differs = D.Differs;
  X.MissingCommRanks = D.MissingCommRanks;
  for (const RankOp &Issued : D.Issued) {
    ReportOp Op = op(Issued);
    // Identical issues at one call-site read as one line in the text.
    auto Group = std::find_if(
        X.IssuedGroups.begin(), X.IssuedGroups.end(), [&](const auto &G) {
          return G.Description == Op.Description &&
                 G.WhereWithCaller == Op.Loc.WhereWithCaller;
        });
    if (Group == X.IssuedGroups.end())
      Group = X.IssuedGroups.insert(
          X.IssuedGroups.end(),
          ReportIssuedGroup{Op.Description, Op.Loc.WhereWithCaller, {}});
    Group->Ranks.push_back(std::to_string(Op.Rank));
    X.Issued.push_back(std::move(Op));
  }
  const CommSummary *C = A.comm(D.CommId);
  for (int CommRank : D.MissingCommRanks) {
    ReportMissingMember M;
    M.CommRank = CommRank;
    int Trace = C && CommRank < int(C->Members.size())
                    ? C->Members[size_t(CommRank)]
                    : -1;
    auto Last = D.LastBefore.find(CommRank);
    if (Last != D.LastBefore.end())
      M.LastBefore = op(Last->second);
    if (Trace >= 0) {
      M.HasTrace = true;
      M.Rank = A.rankOf(Trace);
      M.RankLabel = rankLabel(Trace);
      RankEnd End = A.rankEnd(Trace);
      M.End = End.Text;
      M.BlockedIn = opIf(Trace, End.BlockedIn);
      M.LastCall = opIf(Trace, End.LastCall);
      M.LastCallIsLastBefore =
          Last != D.LastBefore.end() && End.LastCall == Last->second.Rec;
    }
    X.Missing.push_back(std::move(M));
  }
  X.SplitSeq = D.SplitSeq;
  for (const RankOp &Split : D.SplitOps)
    X.Split.push_back(op(Split));
  return X;
}

ReportHang ModelBuilder::hang(const HangReport &H) const {
  ReportHang X;
  X.Rank = A.rankOf(H.Trace);
  X.RankLabel = rankLabel(H.Trace);
  X.BlockedAt = opIf(H.Trace, H.BlockedAt);
  X.BlockedNs = H.BlockedNs;
  for (const Record *Pending : H.Pending)
    X.Pending.push_back(op(H.Trace, *Pending));
  X.PendingNs = H.PendingNs;
  return X;
}

ReportP2P ModelBuilder::p2p(const P2PIssue &P) const {
  ReportP2P X;
  X.CommName = commName(P.CommId);
  X.CommLabel = commLabel(P.CommId);
  X.From = P.From;
  X.To = P.To;
  X.Sends = P.Sends;
  X.Recvs = P.Recvs;
  X.LastSend = opIf(P.LastSend.Trace, P.LastSend.Rec);
  X.LastRecv = opIf(P.LastRecv.Trace, P.LastRecv.Rec);
  X.Detail = P.Detail;
  return X;
}

void ModelBuilder::addRanks(ReportModel &M) const {
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    RankEnd End = A.rankEnd(int(T));
    ReportRank R;
    R.Rank = Tr.Rank;
    R.Label = rankLabel(int(T));
    R.Pid = Tr.Pid;
    R.Host = Tr.Host;
    R.Program = Tr.Program;
    R.TracePath = Tr.Path;
    for (const Record &Rec : Tr.Records)
      R.Operations += Rec.Kind == RecordKind::Op;
    R.End = End.Text;
    R.BlockedIn = opIf(int(T), End.BlockedIn);
    M.Ranks.push_back(std::move(R));
  }
  for (const CommSummary &C : A.Comms) {
    ReportCommunicator X;
    X.Name = commName(C.Id);
    X.ApiName = apiName(C.ApiId);
    X.Size = C.Size;
    X.Agreed = C.Agreed;
    if (C.Created.Rec && C.Created.Rec->Op != OpCode::None) {
      X.CreatedBy = C.Created.Rec->info().Name;
      X.CreatedAt = S.where(C.Created.Trace, *C.Created.Rec);
    }
    M.Communicators.push_back(std::move(X));
  }
}

void ModelBuilder::addSites(ReportModel &M) const {
  // Keyed by (file or where-string, line, op): the order JSON lists them in.
  using SiteKey = std::tuple<std::string, unsigned, std::string>;
  std::map<SiteKey, ReportSite> Sites;
  for (size_t T = 0; T < A.Traces.size(); ++T)
    for (const Record &R : A.Traces[T].Records) {
      if (R.Kind != RecordKind::Op && R.Kind != RecordKind::CommCreate)
        continue;
      SourceLoc L = S.primary(int(T), R);
      SiteKey Key(L.known() ? normalizePath(L.File) : S.where(int(T), R),
                  L.Line, R.info().Name);
      ReportSite &Site = Sites[Key];
      PythonSiteKind How;
      if (S.python(int(T), R.Frames[0], &How))
        Site.Python.insert(pythonHowName(How));
      ++Site.Counts[A.rankOf(int(T))];
      if (R.has(StateUntracked) || R.has(StateCaptured))
        ++Site.CompletionNotObserved[A.rankOf(int(T))];
    }
  for (auto &[Key, Site] : Sites) {
    std::tie(Site.File, Site.Line, Site.Op) = Key;
    M.Sites.push_back(std::move(Site));
  }
}

void ModelBuilder::addSyncs(ReportModel &M) const {
  std::map<std::pair<std::string, std::string>, std::map<int, uint64_t>> Table;
  for (size_t T = 0; T < A.Traces.size(); ++T)
    for (const SyncCount &C : A.Traces[T].Syncs) {
      if (opInfo(C.Op).Category != OpCategory::DeviceSync)
        continue; // backward() calls: the steps of the Python checks.
      ReportSync X;
      X.Rank = A.rankOf(int(T));
      X.Op = opInfo(C.Op).Name;
      X.Count = C.Count;
      X.TotalNs = C.TotalNs;
      std::vector<SourceLoc> Chain = S.frame(int(T), C.Site);
      X.Known = !Chain.empty();
      if (X.Known) {
        X.File = normalizePath(Chain.front().File);
        X.Line = Chain.front().Line;
      }
      X.Where = S.where(int(T), C.Site);
      Table[{X.Where, X.Op}][X.Rank] += C.Count;
      M.Syncs.push_back(std::move(X));
    }
  for (const auto &[Site, Counts] : Table) {
    ReportSyncRow Row{Site.first, Site.second, {}};
    for (size_t T = 0; T < A.Traces.size(); ++T) {
      auto It = Counts.find(A.rankOf(int(T)));
      Row.PerRank.emplace_back(A.rankOf(int(T)),
                               It == Counts.end() ? 0 : It->second);
    }
    M.SyncTable.push_back(std::move(Row));
  }
}

void ModelBuilder::addJoin(ReportModel &M) const {
  if (!In.Join)
    return;
  M.HaveFindings = true;
  M.FindingsPath = In.FindingsPath;
  for (const JoinedFinding &J : In.Join->Findings) {
    const StaticFinding &F = J.Finding;
    M.Findings.push_back({F.Rule, F.File, displayPath(F.File), F.Message,
                          F.Fingerprint, F.Line, verdictName(J.Result),
                          J.Evidence, J.ViaNote, J.Counts});
  }
  for (const RuntimeProblem &P : In.Join->RuntimeOnly)
    M.RuntimeOnly.push_back({P.Kind, P.Summary});
}

void ModelBuilder::addPythonChecks(ReportModel &M) const {
  for (const PythonFinding &F : pythonFindings(A)) {
    ReportPythonCheck X;
    X.Rank = A.rankOf(F.Trace);
    X.Check = F.Check;
    X.Call = F.Call;
    X.Torch = F.Torch;
    X.Backend = F.Backend;
    X.Message = describePythonFinding(F);
    X.Defect = F.Defect;
    X.Where = S.where(F.Trace, F.Site);
    std::vector<SourceLoc> Chain = S.frame(F.Trace, F.Site);
    if (!Chain.empty())
      X.Site = frameOf(Chain.front());
    X.Epoch = F.Epoch;
    X.DefaultSeconds = F.DefaultSeconds;
    X.Count = F.Count;
    X.Steps = F.Steps;
    M.PythonChecks.push_back(std::move(X));
  }
}

std::vector<std::string> ModelBuilder::problemSummary() const {
  std::vector<std::string> What;
  if (A.clean())
    return What;
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
  if (What.empty()) // Unclean for no other reason.
    What.push_back("the watchdog aborted a communicator");
  return What;
}

ReportModel ModelBuilder::build() {
  ReportModel M;
  M.TraceDir = In.TraceDir;
  if (A.HaveManifest)
    M.Program = A.Manifest.Program;
  M.WorkingDir = normalizePath(".");
  M.Clean = A.clean();
  addRanks(M);
  for (const Divergence &D : A.Divergences)
    M.Divergences.push_back(divergence(D));
  for (const HangReport &H : A.Hangs)
    M.Hangs.push_back(hang(H));
  for (const P2PIssue &P : A.P2P)
    M.P2P.push_back(p2p(P));
  for (const RankOp &E : A.AsyncErrors)
    M.AsyncErrors.push_back(
        {rankLabel(E.Trace), commName(E.Rec->CommId), E.Rec->Result});
  for (const RankOp &E : A.LiveMismatches)
    M.LiveMismatches.push_back(
        {A.rankOf(E.Trace), rankLabel(E.Trace), MismatchKind(E.Rec->Tag),
         E.Rec->Seq, commName(E.Rec->CommId), E.Rec->Peer,
         // The peer's stamp of the divergence may be
         // a little later than the report (clocks of
         // two processes): no negative latency.
         E.Rec->EndNs > E.Rec->StartNs ? E.Rec->EndNs - E.Rec->StartNs : 0});
  for (const RankOp &E : A.WatchdogAborts)
    M.WatchdogAborts.push_back(
        {rankLabel(E.Trace), commName(E.Rec->CommId), E.Rec->Result});
  addSites(M);
  addSyncs(M);
  addJoin(M);
  addPythonChecks(M);
  M.Notes = A.Notes;
  M.ProblemSummary = problemSummary();
  return M;
}

} // namespace

ReportModel buildReportModel(const ReportInput &In) {
  return ModelBuilder(In).build();
}

} // namespace rt
} // namespace distlint
