//===- Join.cpp - Verdicts for distlint's static findings
//------------------===//
#include "Join.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace distlint {
namespace rt {

using nlohmann::json;

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Confirmed:
    return "confirmed";
  case Verdict::ReachedUniformly:
    return "reached uniformly";
  case Verdict::NotReached:
    return "not reached";
  }
  return "?";
}

bool readFindings(const std::string &Path, std::vector<StaticFinding> &Out,
                  std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot open";
    return false;
  }
  json J = json::parse(In, nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || !J.contains("findings") || !J["findings"].is_array()) {
    Error = Path + ": not distlint JSON output (no \"findings\" array)";
    return false;
  }
  for (const json &F : J["findings"]) {
    if (!F.is_object())
      continue;
    StaticFinding S;
    S.Rule = F.value("rule", "");
    S.Severity = F.value("severity", "");
    S.File = F.value("file", "");
    S.Line = F.value("line", 0u);
    S.Column = F.value("column", 0u);
    S.Message = F.value("message", "");
    S.Fingerprint = F.value("fingerprint", "");
    if (F.contains("notes") && F["notes"].is_array())
      for (const json &N : F["notes"])
        if (N.is_object())
          S.Notes.push_back({N.value("file", ""), N.value("line", 0u),
                             N.value("message", "")});
    if (S.File.empty() || S.Line == 0) {
      Error = Path + ": a finding without file and line";
      return false;
    }
    Out.push_back(std::move(S));
  }
  return true;
}

namespace {

using LineKey = std::pair<std::string, unsigned>;

LineKey key(const std::string &File, unsigned Line) {
  return {normalizePath(File), Line};
}

/// Same line, and the same file - or, when the trees differ (built in one
/// place, analyzed in another), the same directory and file name.
bool sameLine(const LineKey &A, const LineKey &B) {
  if (A.second != B.second)
    return false;
  if (A.first == B.first)
    return true;
  auto LastTwo = [](const std::string &P) {
    size_t Slash = P.rfind('/');
    if (Slash == std::string::npos || Slash == 0)
      return P;
    size_t Before = P.rfind('/', Slash - 1);
    return Before == std::string::npos ? P : P.substr(Before);
  };
  return LastTwo(A.first) == LastTwo(B.first);
}

bool recordMatches(const Sites &S, int Trace, const Record &R,
                   const std::vector<LineKey> &Keys) {
  for (const SourceLoc &L : S.locations(Trace, R)) {
    LineKey K = key(L.File, L.Line);
    for (const LineKey &W : Keys)
      if (sameLine(K, W))
        return true;
  }
  return false;
}

bool frameMatches(const Sites &S, int Trace, PackedFrame F,
                  const std::vector<LineKey> &Keys) {
  for (const SourceLoc &L : S.frame(Trace, F)) {
    LineKey K = key(L.File, L.Line);
    for (const LineKey &W : Keys)
      if (sameLine(K, W))
        return true;
  }
  return false;
}

bool countable(const Record &R) {
  return R.Kind == RecordKind::Op || R.Kind == RecordKind::CommCreate;
}

struct SiteCounts {
  std::map<uint64_t, std::map<int, uint64_t>>
      ByComm;                    ///< Comm -> trace -> count.
  std::map<int, uint64_t> Syncs; ///< Trace -> count.
  uint64_t Total = 0;
};

SiteCounts countAt(const Analysis &A, const Sites &S,
                   const std::vector<LineKey> &Keys) {
  SiteCounts C;
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    for (const Record &R : A.Traces[T].Records)
      if (countable(R) && recordMatches(S, int(T), R, Keys)) {
        ++C.ByComm[R.CommId][int(T)];
        ++C.Total;
      }
    for (const SyncCount &Sc : A.Traces[T].Syncs)
      if (frameMatches(S, int(T), Sc.Site, Keys)) {
        C.Syncs[int(T)] += Sc.Count;
        C.Total += Sc.Count;
      }
  }
  return C;
}

} // namespace

std::vector<RuntimeProblem> runtimeProblems(const Analysis &A, const Sites &S) {
  std::vector<RuntimeProblem> P;
  for (size_t I = 0; I < A.Divergences.size(); ++I) {
    const Divergence &D = A.Divergences[I];
    RuntimeProblem R{"divergence", I, D.Issued, ""};
    R.Records.insert(R.Records.end(), D.SplitOps.begin(), D.SplitOps.end());
    R.Summary = "communicator " + commName(D.CommId) +
                " diverged at operation #" + std::to_string(D.Seq);
    if (!D.Issued.empty())
      R.Summary += " (" + describeOp(*D.Issued.front().Rec) + " at " +
                   S.where(D.Issued.front().Trace, *D.Issued.front().Rec) + ")";
    P.push_back(std::move(R));
  }
  for (size_t I = 0; I < A.Hangs.size(); ++I) {
    const HangReport &H = A.Hangs[I];
    RuntimeProblem R{"hang", I, {}, ""};
    const Record &What = H.BlockedAt ? *H.BlockedAt : *H.Pending.front();
    R.Records.push_back({H.Trace, &What});
    for (const Record *O : H.Pending)
      if (O != &What)
        R.Records.push_back({H.Trace, O});
    R.Summary = "rank " + std::to_string(A.rankOf(H.Trace)) + " hung in " +
                What.info().Name + " at " + S.where(H.Trace, What);
    P.push_back(std::move(R));
  }
  for (size_t I = 0; I < A.P2P.size(); ++I) {
    const P2PIssue &X = A.P2P[I];
    RuntimeProblem R{"p2p", I, {}, ""};
    if (X.LastSend.Rec)
      R.Records.push_back(X.LastSend);
    if (X.LastRecv.Rec)
      R.Records.push_back(X.LastRecv);
    R.Summary = "communicator " + commName(X.CommId) + ": rank " +
                std::to_string(X.From) + " sent " + std::to_string(X.Sends) +
                " message(s) to rank " + std::to_string(X.To) +
                ", which received " + std::to_string(X.Recvs);
    P.push_back(std::move(R));
  }
  for (size_t I = 0; I < A.AsyncErrors.size(); ++I) {
    RuntimeProblem R{"async-error", I, {A.AsyncErrors[I]}, ""};
    R.Summary = "rank " + std::to_string(A.rankOf(A.AsyncErrors[I].Trace)) +
                ": NCCL reported an asynchronous error on communicator " +
                commName(A.AsyncErrors[I].Rec->CommId);
    P.push_back(std::move(R));
  }
  return P;
}

JoinResult join(const Analysis &A, const Sites &S,
                const std::vector<StaticFinding> &Findings) {
  JoinResult Out;
  std::vector<RuntimeProblem> Problems = runtimeProblems(A, S);
  std::vector<bool> Predicted(Problems.size(), false);

  for (const StaticFinding &F : Findings) {
    JoinedFinding J;
    J.Finding = F;
    std::vector<LineKey> Primary = {key(F.File, F.Line)};
    std::vector<LineKey> NoteKeys;
    for (const StaticNote &N : F.Notes)
      if (N.Line)
        NoteKeys.push_back(key(N.File, N.Line));
    std::vector<LineKey> All = Primary;
    All.insert(All.end(), NoteKeys.begin(), NoteKeys.end());

    SiteCounts C = countAt(A, S, Primary);
    if (C.Total == 0 && !NoteKeys.empty()) {
      C = countAt(A, S, NoteKeys);
      J.ViaNote = C.Total != 0;
    }
    const std::vector<LineKey> &Used = J.ViaNote ? NoteKeys : Primary;

    // Runtime problems at the finding's lines (its notes included).
    std::string ProblemHere;
    for (size_t P = 0; P < Problems.size(); ++P)
      for (const RankOp &Op : Problems[P].Records)
        if (recordMatches(S, Op.Trace, *Op.Rec, All)) {
          Predicted[P] = true;
          if (ProblemHere.empty() &&
              (Problems[P].Kind != "hang" ||
               recordMatches(S, Op.Trace, *Op.Rec, Used)))
            ProblemHere = Problems[P].Summary;
          break;
        }

    // Per-communicator member counts at the site.
    std::string Uneven;
    for (const auto &[CommId, PerTrace] : C.ByComm) {
      std::vector<int> Members;
      if (const CommSummary *Cs = A.comm(CommId))
        Members = Cs->Members;
      if (Members.empty())
        for (size_t T = 0; T < A.Traces.size(); ++T)
          Members.push_back(int(T));
      std::set<uint64_t> Distinct;
      for (int T : Members) {
        uint64_t N = 0;
        if (T >= 0) {
          auto It = PerTrace.find(T);
          N = It == PerTrace.end() ? 0 : It->second;
          J.Counts[A.rankOf(T)] += N;
        }
        Distinct.insert(N);
      }
      if (Distinct.size() > 1 && Uneven.empty()) {
        Uneven = "issued unevenly on communicator " + commName(CommId) + ":";
        for (int T : Members)
          if (T >= 0) {
            auto It = PerTrace.find(T);
            Uneven += " rank " + std::to_string(A.rankOf(T)) + " " +
                      std::to_string(It == PerTrace.end() ? 0 : It->second) +
                      "x";
          }
      }
    }
    if (!C.Syncs.empty()) {
      std::set<uint64_t> Distinct;
      for (size_t T = 0; T < A.Traces.size(); ++T) {
        auto It = C.Syncs.find(int(T));
        uint64_t N = It == C.Syncs.end() ? 0 : It->second;
        J.Counts[A.rankOf(int(T))] += N;
        Distinct.insert(N);
      }
      if (Distinct.size() > 1 && Uneven.empty())
        Uneven = "host synchronization executed a different number of times "
                 "per rank";
    }

    if (!Uneven.empty() || !ProblemHere.empty()) {
      J.Result = Verdict::Confirmed;
      J.Evidence = !ProblemHere.empty() ? ProblemHere : Uneven;
      if (!ProblemHere.empty() && !Uneven.empty())
        J.Evidence += "; " + Uneven;
    } else if (C.Total > 0) {
      J.Result = Verdict::ReachedUniformly;
      J.Evidence =
          "every rank issued it the same number of times (" +
          std::to_string(J.Counts.empty() ? 0 : J.Counts.begin()->second) +
          "x) with the same arguments";
    } else {
      J.Result = Verdict::NotReached;
      J.Evidence = "no rank executed this call-site in this run";
    }
    Out.Findings.push_back(std::move(J));
  }
  for (size_t P = 0; P < Problems.size(); ++P)
    if (!Predicted[P])
      Out.RuntimeOnly.push_back(Problems[P]);
  return Out;
}

} // namespace rt
} // namespace distlint
