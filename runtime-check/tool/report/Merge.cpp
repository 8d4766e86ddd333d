//===- Merge.cpp - Merge rank traces and explain divergences
//---------------===//
#include "Merge.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace distlint {
namespace rt {

using nlohmann::json;

// ---- Operations as text ----------------------------------------------------

static bool isRooted(OpCode Op) { return opIsRooted(Op); }

std::string describeOp(const Record &R) {
  const OpInfo &Info = R.info();
  std::string S = Info.Name;
  std::vector<std::string> Args;
  OpCategory Cat = Info.Category;
  bool Transfer = Cat == OpCategory::Collective || Cat == OpCategory::Send ||
                  Cat == OpCategory::Recv || Cat == OpCategory::SendRecv;
  if (Transfer && R.Op != OpCode::MpiBarrier && R.Op != OpCode::MpiIbarrier) {
    Args.push_back("count=" + std::to_string(R.Count));
    if (!dataTypeName(R.ApiId, R.DataType).empty())
      Args.push_back(dataTypeName(R.ApiId, R.DataType));
    if (!redOpName(R.ApiId, R.RedOp).empty())
      Args.push_back(redOpName(R.ApiId, R.RedOp));
  }
  if (R.ApiId == Api::C10d && Transfer && R.Op != OpCode::C10dBarrier) {
    if (R.Tag > 1)
      Args.push_back(std::to_string(R.Tag) + " tensors");
    char Shape[128];
    if (R.Tag > 0 && formatShapeCode(R.Aux, Shape, sizeof(Shape)))
      Args.push_back(Shape);
  }
  if (isRooted(R.Op))
    Args.push_back("root=" + std::to_string(R.Peer));
  if (Cat == OpCategory::Send || Cat == OpCategory::SendRecv)
    Args.push_back("to rank " + std::to_string(R.Peer));
  if (Cat == OpCategory::Recv)
    Args.push_back(R.Peer == -1 && R.ApiId == Api::Mpi
                       ? std::string("from any rank")
                       : "from rank " + std::to_string(R.Peer));
  if (Cat == OpCategory::SendRecv)
    Args.push_back("from rank " + std::to_string(int64_t(R.Aux)));
  if ((R.Op == OpCode::NcclCommSplit || R.Op == OpCode::MpiCommSplit))
    Args.push_back("color=" + std::to_string(R.Tag));
  S += "(";
  for (size_t I = 0; I < Args.size(); ++I)
    S += (I ? ", " : "") + Args[I];
  return S + ")";
}

std::vector<std::string> fingerprintDiff(const Record &A, const Record &B) {
  if (A.Op != B.Op)
    return {"operation"};
  std::vector<std::string> D;
  if (A.info().Category == OpCategory::CommCreate)
    return D; // Colors and keys differ by design.
  if (A.Count != B.Count)
    D.push_back("count");
  if (A.DataType != B.DataType)
    D.push_back("datatype");
  if (A.RedOp != B.RedOp)
    D.push_back("reduction");
  if (A.ApiId == Api::C10d && A.Aux != B.Aux)
    D.push_back("tensor shape");
  if (isRooted(A.Op) && A.Peer != B.Peer)
    D.push_back("root");
  return D;
}

// ---- Analysis
// ------------------------------------------------------------------------------

bool Analysis::anyRankFailed() const {
  if (!HaveManifest)
    return false;
  for (const RankExit &E : Manifest.Ranks)
    if (!E.KilledByLauncher && (!E.Exited || E.ExitCode != 0))
      return true;
  return false;
}

bool Analysis::clean() const {
  return Divergences.empty() && Hangs.empty() && P2P.empty() &&
         AsyncErrors.empty() && WatchdogAborts.empty() &&
         LiveMismatches.empty() && PythonDefects.empty() && !anyRankFailed();
}

const CommSummary *Analysis::comm(uint64_t Id) const {
  for (const CommSummary &C : Comms)
    if (C.Id == Id)
      return &C;
  return nullptr;
}

static std::string signalName(int Sig) {
  const char *Abbrev = sigabbrev_np(Sig);
  return Abbrev ? std::string("SIG") + Abbrev : "signal " + std::to_string(Sig);
}

RankEnd Analysis::rankEnd(int Trace) const {
  RankEnd End;
  const RankTrace &T = Traces[size_t(Trace)];
  for (auto It = T.Records.rbegin(); It != T.Records.rend(); ++It)
    if (It->Kind == RecordKind::Hang) {
      const Record *Op = It->Aux != ~uint64_t(0) ? T.bySlot(It->Aux) : nullptr;
      End.BlockedIn = Op ? Op : &*It;
      break;
    }
  if (!End.BlockedIn && !T.exited())
    for (auto It = T.Records.rbegin(); It != T.Records.rend(); ++It)
      if (It->Kind == RecordKind::Op && !It->has(StateReturned)) {
        End.BlockedIn = &*It;
        break;
      }
  for (auto It = T.Records.rbegin(); It != T.Records.rend(); ++It)
    if (It->Kind == RecordKind::Op) {
      End.LastCall = &*It;
      break;
    }
  const RankExit *E = HaveManifest ? Manifest.forRank(T.Rank) : nullptr;
  if (E && E->KilledByLauncher)
    End.Text = "was still running when distlint-rt ended the job";
  else if (E && E->Exited)
    End.Text = "exited with code " + std::to_string(E->ExitCode);
  else if (E && E->Signal)
    End.Text = "was killed by " + signalName(E->Signal);
  else if (T.exited())
    End.Text = "exited";
  else
    End.Text = "did not exit (still running, or killed)";
  return End;
}

namespace {

bool inCollectiveSequence(const Record &R) {
  if (R.Kind != RecordKind::Op || R.Seq == 0)
    return false;
  OpCategory C = R.info().Category;
  return C == OpCategory::Collective || C == OpCategory::CommCreate;
}

bool isSend(const Record &R) {
  OpCategory C = R.info().Category;
  return R.Kind == RecordKind::Op &&
         (C == OpCategory::Send || C == OpCategory::SendRecv);
}

bool isRecv(const Record &R) {
  return R.Kind == RecordKind::Op && R.info().Category == OpCategory::Recv;
}

void compareComm(Analysis &A, CommSummary &C) {
  // Comm rank -> (seq -> record).
  std::vector<std::map<uint64_t, const Record *>> Seqs(C.Members.size());
  for (size_t R = 0; R < C.Members.size(); ++R) {
    int T = C.Members[R];
    if (T < 0)
      continue;
    for (const Record &Rec : A.Traces[size_t(T)].Records)
      if (Rec.CommId == C.Id && Rec.CommRank == int(R) &&
          inCollectiveSequence(Rec))
        Seqs[R].emplace(Rec.Seq, &Rec);
  }

  std::vector<int> Absent;
  for (size_t R = 0; R < C.Members.size(); ++R)
    if (C.Members[R] < 0)
      Absent.push_back(int(R));
  if (!Absent.empty()) {
    Divergence D;
    D.CommId = C.Id;
    D.Seq = 0;
    D.MissingCommRanks = Absent;
    for (size_t R = 0; R < C.Members.size(); ++R)
      if (C.Members[R] >= 0) {
        const RankTrace &T = A.Traces[size_t(C.Members[R])];
        for (const Record &Rec : T.Records)
          if (Rec.CommId == C.Id && Rec.Kind == RecordKind::CommCreate) {
            D.Issued.push_back({C.Members[R], &Rec});
            D.TimeNs = D.TimeNs ? std::min(D.TimeNs, T.toRealtime(Rec.StartNs))
                                : T.toRealtime(Rec.StartNs);
            break;
          }
      }
    A.Divergences.push_back(std::move(D));
    return;
  }

  // Rings that wrapped lost their oldest records: compare what all kept.
  uint64_t First = 1, Last = 0;
  for (const auto &S : Seqs) {
    if (!S.empty()) {
      First = std::max(First, S.begin()->first);
      Last = std::max(Last, S.rbegin()->first);
    }
  }
  // The first agreed collective whose call-sites differ between members.
  uint64_t SplitSeq = 0;
  std::vector<RankOp> SplitOps;
  auto SiteOf = [&](const RankOp &Op) {
    PackedFrame F = Op.Rec->Frames[0];
    const RankTrace &T = A.Traces[size_t(Op.Trace)];
    std::string Module = frameValid(F) && frameModule(F) < T.Modules.size()
                             ? T.Modules[frameModule(F)]
                             : std::string();
    return Module + "+" + std::to_string(frameOffset(F));
  };
  for (uint64_t Seq = First; Seq <= Last; ++Seq) {
    std::vector<RankOp> Issued;
    std::vector<int> Missing;
    for (size_t R = 0; R < Seqs.size(); ++R) {
      auto It = Seqs[R].find(Seq);
      if (It == Seqs[R].end())
        Missing.push_back(int(R));
      else
        Issued.push_back({C.Members[R], It->second});
    }
    std::set<std::string> Differs;
    for (size_t I = 1; I < Issued.size(); ++I)
      for (const std::string &F :
           fingerprintDiff(*Issued[0].Rec, *Issued[I].Rec))
        Differs.insert(F);
    if (Missing.empty() && Differs.empty()) {
      ++C.Agreed;
      if (!SplitSeq)
        for (size_t I = 1; I < Issued.size(); ++I)
          if (SiteOf(Issued[I]) != SiteOf(Issued[0])) {
            SplitSeq = Seq;
            SplitOps = Issued;
            break;
          }
      continue;
    }
    Divergence D;
    D.CommId = C.Id;
    D.Seq = Seq;
    D.Issued = Issued;
    D.MissingCommRanks = Missing;
    D.Differs.assign(Differs.begin(), Differs.end());
    D.SplitSeq = SplitSeq;
    D.SplitOps = SplitOps;
    for (const RankOp &Op : Issued) {
      uint64_t T = A.Traces[size_t(Op.Trace)].toRealtime(Op.Rec->StartNs);
      D.TimeNs = D.TimeNs ? std::min(D.TimeNs, T) : T;
    }
    for (int R : Missing) {
      auto &S = Seqs[size_t(R)];
      auto It = S.lower_bound(Seq);
      if (It != S.begin()) {
        --It;
        D.LastBefore[R] = {C.Members[size_t(R)], It->second};
      }
    }
    A.Divergences.push_back(std::move(D));
    return;
  }
}

void pairPointToPoint(Analysis &A, const CommSummary &C) {
  for (int T : C.Members)
    if (T >= 0 && A.Traces[size_t(T)].wrapped()) {
      A.Notes.push_back(
          "communicator " + commName(C.Id) +
          ": a rank's trace ring wrapped; point-to-point pairing skipped");
      return;
    }
  int N = int(C.Members.size());
  // Records per (To, From) pair that has any, in order: sparse, because a
  // communicator can have a million members (a dense N x N table cannot).
  struct PairRecords {
    std::vector<const Record *> Sends, Recvs;
  };
  std::map<std::pair<int, int>, PairRecords> Pairs;
  std::vector<uint64_t> AnyRecvs(size_t(N), 0);
  for (int R = 0; R < N; ++R) {
    int T = C.Members[size_t(R)];
    if (T < 0)
      continue;
    for (const Record &Rec : A.Traces[size_t(T)].Records) {
      if (Rec.CommId != C.Id || Rec.CommRank != R || Rec.has(StateFailed))
        continue;
      if (isSend(Rec) && Rec.Peer >= 0 && Rec.Peer < N)
        Pairs[{Rec.Peer, R}].Sends.push_back(&Rec);
      if (Rec.Kind == RecordKind::Op &&
          Rec.info().Category == OpCategory::SendRecv) {
        int Source = int(int64_t(Rec.Aux));
        if (Source >= 0 && Source < N)
          Pairs[{R, Source}].Recvs.push_back(&Rec);
      }
      if (isRecv(Rec)) {
        if (Rec.Peer >= 0 && Rec.Peer < N)
          Pairs[{R, Rec.Peer}].Recvs.push_back(&Rec);
        else if (Rec.Peer == -1 && Rec.ApiId == Api::Mpi)
          ++AnyRecvs[size_t(R)];
      }
    }
  }
  // A pair without records has nothing to match or report; wildcard
  // receives are taken by the senders to a rank in rank order, as before.
  for (auto &[Key, Records] : Pairs) {
    auto [To, From] = Key;
    uint64_t &Any = AnyRecvs[size_t(To)];
    auto &S = Records.Sends;
    auto &R = Records.Recvs;
    uint64_t Matched = R.size();
    if (S.size() > Matched) {
      uint64_t Take = std::min<uint64_t>(Any, S.size() - Matched);
      Any -= Take;
      Matched += Take;
    }
    P2PIssue Issue;
    Issue.CommId = C.Id;
    Issue.From = From;
    Issue.To = To;
    Issue.Sends = S.size();
    Issue.Recvs = R.size();
    if (!S.empty())
      Issue.LastSend = {C.Members[size_t(From)], S.back()};
    if (!R.empty())
      Issue.LastRecv = {C.Members[size_t(To)], R.back()};
    if (S.size() != Matched || R.size() > S.size()) {
      A.P2P.push_back(Issue);
      continue;
    }
    if (C.ApiId != Api::Nccl)
      continue;
    // NCCL needs identical counts and types on both ends.
    for (size_t I = 0; I < R.size() && I < S.size(); ++I)
      if (S[I]->Count != R[I]->Count || S[I]->DataType != R[I]->DataType) {
        Issue.Detail = "message " + std::to_string(I + 1) + ": sent " +
                       describeOp(*S[I]) + ", received as " + describeOp(*R[I]);
        Issue.LastSend = {C.Members[size_t(From)], S[I]};
        Issue.LastRecv = {C.Members[size_t(To)], R[I]};
        A.P2P.push_back(Issue);
        break;
      }
  }
}

} // namespace

Analysis analyze(std::vector<RankTrace> Traces, const RunManifest *Manifest) {
  Analysis A;
  A.Traces = std::move(Traces);
  if (Manifest) {
    A.Manifest = *Manifest;
    A.HaveManifest = true;
  }
  // Communicators and their members. Trace files are untrusted input: a
  // communicator larger than the job's world (or than any real job) is a
  // corrupt record, not a reason to allocate gigabytes for its member table.
  int32_t MaxCommSize = 0;
  for (const RankTrace &Tr : A.Traces)
    MaxCommSize = std::max(MaxCommSize, int32_t(Tr.WorldSize));
  if (MaxCommSize <= 0 || MaxCommSize > kMaxCommunicatorSize)
    MaxCommSize = kMaxCommunicatorSize;
  std::map<uint64_t, CommSummary> Comms;
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    size_t Implausible = 0;
    if (Tr.wrapped())
      A.Notes.push_back(
          "rank " + std::to_string(Tr.Rank) + ": the trace ring wrapped; " +
          "the oldest records were overwritten (raise DISTLINT_RT_RECORDS)");
    if (Tr.UntrackedOps)
      A.Notes.push_back(
          "rank " + std::to_string(Tr.Rank) + ": " +
          std::to_string(Tr.UntrackedOps) +
          " operations could not be watched (too many pending at once)");
    for (const Record &R : Tr.Records) {
      if (!R.CommId || R.CommRank < 0 || R.CommSize <= 0 ||
          (R.Kind != RecordKind::Op && R.Kind != RecordKind::CommCreate))
        continue;
      if (R.CommSize > MaxCommSize || R.CommRank >= R.CommSize) {
        ++Implausible;
        continue;
      }
      CommSummary &C = Comms[R.CommId];
      C.Id = R.CommId;
      C.ApiId = R.ApiId;
      if (R.CommSize > C.Size) {
        C.Size = R.CommSize;
        C.Members.resize(size_t(C.Size), -1);
      }
      if (R.CommRank < C.Size) {
        int &M = C.Members[size_t(R.CommRank)];
        if (M >= 0 && M != int(T) && A.Traces[size_t(M)].Pid != Tr.Pid) {
          A.Notes.push_back(
              "communicator " + commName(C.Id) + ": rank " +
              std::to_string(R.CommRank) +
              " appears in two traces (stale files in the trace directory?)");
        } else {
          M = int(T);
        }
      }
      if (R.Kind == RecordKind::CommCreate && !C.Created.Rec)
        C.Created = {int(T), &R};
    }
    if (Implausible)
      A.Notes.push_back("rank " + std::to_string(Tr.Rank) + ": " +
                        std::to_string(Implausible) +
                        " records with a communicator rank or size outside "
                        "the job were ignored (corrupt trace?)");
  }
  for (auto &[Id, C] : Comms) {
    compareComm(A, C);
    pairPointToPoint(A, C);
    A.Comms.push_back(C);
  }
  std::stable_sort(A.Divergences.begin(), A.Divergences.end(),
                   [](const Divergence &X, const Divergence &Y) {
                     return X.TimeNs < Y.TimeNs;
                   });

  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    HangReport H;
    H.Trace = int(T);
    std::set<const Record *> Pending;
    for (const Record &R : Tr.Records) {
      if (R.Kind == RecordKind::AsyncError)
        A.AsyncErrors.push_back({int(T), &R});
      if (R.Kind == RecordKind::WatchdogAbort)
        A.WatchdogAborts.push_back({int(T), &R});
      if (R.Kind == RecordKind::LiveMismatch)
        A.LiveMismatches.push_back({int(T), &R});
      if (R.Kind == RecordKind::PythonCheck)
        A.PythonDefects.push_back({int(T), &R});
      if (R.Kind != RecordKind::Hang)
        continue;
      H.Hangs.push_back(&R);
      uint64_t For = R.EndNs - R.StartNs;
      const Record *Op = R.Aux != ~uint64_t(0) ? Tr.bySlot(R.Aux) : nullptr;
      if (!Op || !Op->has(StateReturned)) {
        // The host itself was stuck here.
        if (!H.BlockedAt || For >= H.BlockedNs) {
          H.BlockedAt = Op ? Op : &R;
          H.BlockedNs = For;
        }
      } else {
        Pending.insert(Op);
        H.PendingNs = std::max(H.PendingNs, For);
      }
    }
    if (H.Hangs.empty())
      continue;
    uint64_t Until = 0;
    for (const Record *R : H.Hangs)
      Until = std::max(Until, R->EndNs);
    for (const Record &Op : Tr.Records)
      if (Op.Kind == RecordKind::Op &&
          (Op.ApiId == Api::Nccl || Op.ApiId == Api::C10d) &&
          Op.StartNs <= Until && Op.has(StateReturned) &&
          !Op.has(StateCompleted) &&
          !Op.has(StateUntracked | StateCaptured | StateFailed) &&
          Op.info().Category != OpCategory::CommEnd)
        Pending.insert(&Op);
    for (const Record *Op : Pending)
      H.Pending.push_back(Op);
    std::sort(
        H.Pending.begin(), H.Pending.end(),
        [](const Record *X, const Record *Y) { return X->Slot < Y->Slot; });
    A.Hangs.push_back(std::move(H));
  }
  return A;
}

} // namespace rt
} // namespace distlint
