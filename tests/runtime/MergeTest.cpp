//===- MergeTest.cpp - Lining up rank traces, finding divergences ---------===//
#include "TestTraces.h"

#include "Merge.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

using namespace distlint::rt;
using namespace distlint::rt::test;

namespace {

constexpr uint64_t Comm = 0xabcdef0012345678ull;
constexpr int Float32 = 7, Sum = 0, Max = 2;

Record allReduce(int Rank, uint64_t Seq, uint64_t Count = 1024, uint64_t Site = 0x100) {
  return OpBuilder(OpCode::NcclAllReduce, Comm, Rank, 2)
      .seq(Seq).count(Count).type(Float32).red(Sum).at(Site).time(Seq * 1000).R;
}

Record create(int Rank, int Size = 2) {
  return OpBuilder(OpCode::NcclCommInitRank, Comm, Rank, Size)
      .kind(RecordKind::CommCreate).at(0x10).R;
}

} // namespace

TEST(Merge, IdenticalSequencesAgree) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  for (int R = 0; R < 2; ++R) {
    append(T[R], create(R));
    for (uint64_t S = 1; S <= 5; ++S)
      append(T[R], allReduce(R, S));
  }
  Analysis A = analyze(T, nullptr);
  EXPECT_TRUE(A.clean());
  ASSERT_EQ(A.Comms.size(), 1u);
  EXPECT_EQ(A.Comms[0].Agreed, 5u);
  EXPECT_EQ(A.Comms[0].Members, (std::vector<int>{0, 1}));
}

TEST(Merge, RankMissingFromAnOperation) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  for (int R = 0; R < 2; ++R) {
    append(T[R], create(R));
    append(T[R], allReduce(R, 1));
  }
  append(T[0], allReduce(0, 2, 1024, 0x200));
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 1u);
  const Divergence &D = A.Divergences[0];
  EXPECT_EQ(D.Seq, 2u);
  EXPECT_EQ(D.MissingCommRanks, std::vector<int>{1});
  ASSERT_EQ(D.Issued.size(), 1u);
  EXPECT_EQ(D.Issued[0].Trace, 0);
  EXPECT_EQ(frameOffset(D.Issued[0].Rec->Frames[0]), 0x200u);
  ASSERT_TRUE(D.LastBefore.count(1));
  EXPECT_EQ(D.LastBefore.at(1).Rec->Seq, 1u);
  EXPECT_TRUE(D.Differs.empty());
  EXPECT_EQ(A.Comms[0].Agreed, 1u);
  EXPECT_FALSE(A.clean());
}

TEST(Merge, DifferentCountIsADivergence) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], allReduce(0, 1, 256));
  append(T[1], allReduce(1, 1, 512));
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 1u);
  EXPECT_EQ(A.Divergences[0].Differs, std::vector<std::string>{"count"});
  EXPECT_TRUE(A.Divergences[0].MissingCommRanks.empty());
  EXPECT_EQ(A.Divergences[0].Issued.size(), 2u);
}

TEST(Merge, FingerprintFields) {
  Record A = allReduce(0, 1), B = allReduce(1, 1);
  EXPECT_TRUE(fingerprintDiff(A, B).empty());
  B.RedOp = Max;
  B.DataType = 8;
  EXPECT_EQ(fingerprintDiff(A, B), (std::vector<std::string>{"datatype", "reduction"}));
  B = A;
  B.Op = OpCode::NcclBroadcast;
  EXPECT_EQ(fingerprintDiff(A, B), std::vector<std::string>{"operation"});
  // The root matters for rooted collectives only.
  Record Bc0 = OpBuilder(OpCode::NcclBroadcast, Comm, 0, 2).seq(1).count(4).type(7).peer(0).R;
  Record Bc1 = Bc0;
  Bc1.Peer = 1;
  EXPECT_EQ(fingerprintDiff(Bc0, Bc1), std::vector<std::string>{"root"});
  // Split colors differ by design.
  Record S0 = OpBuilder(OpCode::NcclCommSplit, Comm, 0, 2).seq(3).R, S1 = S0;
  S0.Tag = 0;
  S1.Tag = 1;
  EXPECT_TRUE(fingerprintDiff(S0, S1).empty());
  // Call-sites and groups are not part of the fingerprint.
  B = A;
  B.Frames[0] = frameAt(0x999);
  B.Group = 3;
  EXPECT_TRUE(fingerprintDiff(A, B).empty());
}

TEST(Merge, DescribesOperationsReadably) {
  EXPECT_EQ(describeOp(allReduce(0, 1, 1024)), "ncclAllReduce(count=1024, float32, sum)");
  Record Bc = OpBuilder(OpCode::NcclBroadcast, Comm, 0, 2).count(4).type(2).peer(1).R;
  EXPECT_EQ(describeOp(Bc), "ncclBroadcast(count=4, int32, root=1)");
  Record Mpi = OpBuilder(OpCode::MpiAllreduce, Comm, 0, 2).count(1).type(7).red(1).R;
  EXPECT_EQ(describeOp(Mpi), "MPI_Allreduce(count=1, MPI_INT, MPI_SUM)");
  Record Send = OpBuilder(OpCode::MpiSend, Comm, 0, 2).count(3).type(7).peer(1).R;
  EXPECT_EQ(describeOp(Send), "MPI_Send(count=3, MPI_INT, to rank 1)");
  Record Any = OpBuilder(OpCode::MpiRecv, Comm, 1, 2).count(3).type(7).peer(-1).R;
  EXPECT_EQ(describeOp(Any), "MPI_Recv(count=3, MPI_INT, from any rank)");
  EXPECT_EQ(dataTypeName(Api::Mpi, kMpiDerivedType | 24), "derived type of 24 bytes");
}

TEST(Merge, WrappedRingsCompareWhatAllKept) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  // Rank 0's ring lost seq 1..49; rank 1 kept everything.
  for (uint64_t S = 50; S <= 60; ++S)
    append(T[0], allReduce(0, S));
  T[0].Head = T[0].Capacity + 100;
  for (uint64_t S = 1; S <= 60; ++S)
    append(T[1], allReduce(1, S));
  Analysis A = analyze(T, nullptr);
  EXPECT_TRUE(A.Divergences.empty());
  EXPECT_EQ(A.Comms[0].Agreed, 11u);
  bool Noted = false;
  for (const std::string &N : A.Notes)
    Noted |= N.find("wrapped") != std::string::npos;
  EXPECT_TRUE(Noted);
}

TEST(Merge, MemberThatNeverJoined) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], create(0));
  append(T[0], allReduce(0, 1));
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 1u);
  EXPECT_EQ(A.Divergences[0].Seq, 0u);
  EXPECT_EQ(A.Divergences[0].MissingCommRanks, std::vector<int>{1});
}

TEST(Merge, FirstDivergenceIsTheEarliestAcrossCommunicators) {
  constexpr uint64_t Other = 0x1111;
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  // Comm: diverges at time 5000; Other: at time 2000.
  append(T[0], allReduce(0, 1));
  append(T[1], allReduce(1, 1));
  Record Late = allReduce(0, 2);
  Late.StartNs = 5000;
  append(T[0], Late);
  Record Early = OpBuilder(OpCode::NcclBroadcast, Other, 1, 2).seq(1).count(1).type(7).peer(0).time(2000).R;
  append(T[1], Early);
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 2u);
  EXPECT_EQ(A.Divergences[0].CommId, Other);
  EXPECT_EQ(A.Divergences[1].CommId, Comm);
}

TEST(Merge, PointToPointThatDoesNotPairUp) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  for (uint64_t I = 1; I <= 2; ++I)
    append(T[0], OpBuilder(OpCode::MpiSend, Comm, 0, 2).seq(I).count(1).type(7).peer(1).at(0x300).R);
  for (uint64_t I = 1; I <= 3; ++I)
    append(T[1], OpBuilder(OpCode::MpiRecv, Comm, 1, 2).seq(I).count(1).type(7).peer(0).at(0x310).R);
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.P2P.size(), 1u);
  EXPECT_EQ(A.P2P[0].From, 0);
  EXPECT_EQ(A.P2P[0].To, 1);
  EXPECT_EQ(A.P2P[0].Sends, 2u);
  EXPECT_EQ(A.P2P[0].Recvs, 3u);
}

TEST(Merge, AnySourceReceivesPairWithSends) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], OpBuilder(OpCode::MpiSend, Comm, 0, 2).seq(1).count(1).type(7).peer(1).R);
  append(T[1], OpBuilder(OpCode::MpiRecv, Comm, 1, 2).seq(1).count(1).type(7).peer(-1).R);
  Analysis A = analyze(T, nullptr);
  EXPECT_TRUE(A.P2P.empty());
  EXPECT_TRUE(A.clean());
}

TEST(Merge, NcclSendAndReceiveMustAgreeOnCount) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], OpBuilder(OpCode::NcclSend, Comm, 0, 2).seq(1).count(16).type(7).peer(1).R);
  append(T[1], OpBuilder(OpCode::NcclRecv, Comm, 1, 2).seq(1).count(8).type(7).peer(0).R);
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.P2P.size(), 1u);
  EXPECT_NE(A.P2P[0].Detail.find("count=16"), std::string::npos);
  EXPECT_NE(A.P2P[0].Detail.find("count=8"), std::string::npos);
}

TEST(Merge, HangGroupsTheHostWaitWithIncompleteWork) {
  std::vector<RankTrace> T = {rankTrace(0)};
  T[0].Flags = 0;
  Record Op = allReduce(0, 1);
  Op.CommSize = 1;
  Op.State = StateReturned; // Issued, never completed.
  append(T[0], Op);
  Record Hang = OpBuilder(OpCode::CudaStreamSynchronize, 0, -1, 0).kind(RecordKind::Hang).aux(~0ull).at(0x500).R;
  Hang.StartNs = 2000;
  Hang.EndNs = 2000 + 3000000000ull;
  append(T[0], Hang);
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Hangs.size(), 1u);
  const HangReport &H = A.Hangs[0];
  ASSERT_NE(H.BlockedAt, nullptr);
  EXPECT_EQ(H.BlockedAt->Op, OpCode::CudaStreamSynchronize);
  EXPECT_EQ(H.BlockedNs, 3000000000ull);
  ASSERT_EQ(H.Pending.size(), 1u);
  EXPECT_EQ(H.Pending[0]->Op, OpCode::NcclAllReduce);
  // The rank that hung is described as blocked there.
  RankEnd End = A.rankEnd(0);
  ASSERT_NE(End.BlockedIn, nullptr);
  EXPECT_EQ(End.BlockedIn->Op, OpCode::CudaStreamSynchronize);
}

TEST(Merge, ManifestRoundTripAndRankEnds) {
  char Dir[] = "/tmp/dlrt-manifest-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string Path = std::string(Dir) + "/run.json";
  RunManifest M;
  M.NProc = 2;
  M.Program = "./train --epochs 1";
  M.TimeoutSeconds = 3;
  M.HangConfirmed = true;
  M.Ranks.push_back({0, 10, false, 0, 15, true});
  M.Ranks.push_back({1, 11, true, 0, 0, false});
  std::string Error;
  ASSERT_TRUE(writeManifest(Path, M, Error)) << Error;
  RunManifest Back;
  ASSERT_TRUE(readManifest(Path, Back, Error)) << Error;
  EXPECT_EQ(Back.Program, M.Program);
  EXPECT_TRUE(Back.HangConfirmed);
  ASSERT_EQ(Back.Ranks.size(), 2u);
  EXPECT_TRUE(Back.Ranks[0].KilledByLauncher);
  EXPECT_EQ(Back.Ranks[0].Signal, 15);
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  Analysis A = analyze(T, &Back);
  EXPECT_EQ(A.rankEnd(0).Text, "was still running when distlint-rt ended the job");
  EXPECT_EQ(A.rankEnd(1).Text, "exited with code 0");
  EXPECT_FALSE(A.anyRankFailed());
  unlink(Path.c_str());
  rmdir(Dir);
}

TEST(Merge, AgreedCollectiveFromDifferentCallSitesIsNoted) {
  // Rank 0's rank-only all-reduce (site 0x100) pairs with rank 1's common one
  // (site 0x200); rank 0's common one then has no partner.
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], allReduce(0, 1, 1024, 0x100));
  append(T[0], allReduce(0, 2, 1024, 0x200));
  append(T[1], allReduce(1, 1, 1024, 0x200));
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 1u);
  const Divergence &D = A.Divergences[0];
  EXPECT_EQ(D.Seq, 2u);
  EXPECT_EQ(D.SplitSeq, 1u);
  ASSERT_EQ(D.SplitOps.size(), 2u);
  EXPECT_EQ(frameOffset(D.SplitOps[0].Rec->Frames[0]), 0x100u);
  EXPECT_EQ(frameOffset(D.SplitOps[1].Rec->Frames[0]), 0x200u);
}

TEST(Merge, SameCallSitesLeaveNoSplitNote) {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  append(T[0], allReduce(0, 1));
  append(T[0], allReduce(0, 2));
  append(T[1], allReduce(1, 1));
  Analysis A = analyze(T, nullptr);
  ASSERT_EQ(A.Divergences.size(), 1u);
  EXPECT_EQ(A.Divergences[0].SplitSeq, 0u);
}
