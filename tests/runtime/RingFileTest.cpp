//===- RingFileTest.cpp - The per-rank trace file --------------------------===//
#include "TraceReader.h"
#include "TraceWriter.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

using namespace distlint::rt;

namespace {

class RingFile : public ::testing::Test {
protected:
  void SetUp() override {
    char Template[] = "/tmp/dlrt-ring-XXXXXX";
    ASSERT_NE(mkdtemp(Template), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    if (DIR *D = opendir(Dir.c_str())) {
      while (dirent *E = readdir(D))
        if (E->d_name[0] != '.')
          unlink((Dir + "/" + E->d_name).c_str());
      closedir(D);
    }
    rmdir(Dir.c_str());
  }
  TraceWriter *make(uint32_t Records, int Rank = 3) {
    TraceOptions O;
    O.Dir = Dir + "/sub";
    O.Records = Records;
    O.Rank = Rank;
    O.WorldSize = 4;
    std::string Error;
    TraceWriter *W = TraceWriter::create(O, Error);
    EXPECT_NE(W, nullptr) << Error;
    // The preload library keeps its writer for the life of the process; a
    // test frees its own.
    Writers.emplace_back(W);
    return W;
  }
  std::vector<std::unique_ptr<TraceWriter>> Writers;
  static void put(TraceWriter &W, uint64_t Seq, uint32_t Tid = 1) {
    uint64_t Slot;
    TraceRecord *R = W.claim(Slot);
    R->Seq = Seq;
    R->CommId = 77;
    R->Count = Seq * 2;
    R->Kind = uint32_t(RecordKind::Op);
    R->Op = uint16_t(OpCode::NcclAllReduce);
    R->ApiId = uint16_t(Api::Nccl);
    R->Tid = Tid;
    R->Frames[0] = packFrame(2, 0x1234);
    W.commit(R, Slot);
  }
  std::string Dir;
};

} // namespace

TEST_F(RingFile, RecordsReadBackInOrderWithPrivateMode) {
  TraceWriter *W = make(1024);
  ASSERT_NE(W, nullptr);
  for (uint64_t S = 1; S <= 10; ++S)
    put(*W, S);
  W->writeModule(0, "/bin/train");
  W->writeModule(2, "/lib/libuser.so");
  struct stat St;
  ASSERT_EQ(stat(W->path().c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0600u);
  struct stat DirSt;
  ASSERT_EQ(stat((Dir + "/sub").c_str(), &DirSt), 0);
  EXPECT_EQ(DirSt.st_mode & 0777, 0700u);

  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  EXPECT_EQ(T.Rank, 3);
  EXPECT_EQ(T.WorldSize, 4);
  EXPECT_EQ(T.Pid, int(getpid()));
  ASSERT_EQ(T.Records.size(), 10u);
  for (size_t I = 0; I < 10; ++I) {
    EXPECT_EQ(T.Records[I].Slot, I);
    EXPECT_EQ(T.Records[I].Seq, I + 1);
    EXPECT_EQ(T.Records[I].Count, 2 * (I + 1));
    EXPECT_EQ(frameModule(T.Records[I].Frames[0]), 2u);
    EXPECT_EQ(frameOffset(T.Records[I].Frames[0]), 0x1234u);
  }
  ASSERT_EQ(T.Modules.size(), 3u);
  EXPECT_EQ(T.Modules[0], "/bin/train");
  EXPECT_EQ(T.Modules[1], "");
  EXPECT_EQ(T.Modules[2], "/lib/libuser.so");
  EXPECT_FALSE(T.wrapped());
}

TEST_F(RingFile, WrapsKeepingTheNewestRecords) {
  TraceWriter *W = make(64);
  ASSERT_NE(W, nullptr);
  for (uint64_t S = 1; S <= 100; ++S)
    put(*W, S);
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  ASSERT_EQ(T.Records.size(), 64u);
  EXPECT_EQ(T.Records.front().Seq, 37u);
  EXPECT_EQ(T.Records.back().Seq, 100u);
  EXPECT_TRUE(T.wrapped());
  EXPECT_TRUE(T.Flags & HeaderWrapped);
  EXPECT_EQ(W->recordAt(10), nullptr); // Overwritten.
  ASSERT_NE(W->recordAt(99), nullptr);
  EXPECT_EQ(W->recordAt(99)->Seq, 100u);
}

TEST_F(RingFile, TornRecordsAreDropped) {
  TraceWriter *W = make(64);
  ASSERT_NE(W, nullptr);
  put(*W, 1);
  uint64_t Slot;
  TraceRecord *Half = W->claim(Slot); // Killed before the commit.
  Half->Seq = 2;
  put(*W, 3);
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  ASSERT_EQ(T.Records.size(), 2u);
  EXPECT_EQ(T.Records[0].Seq, 1u);
  EXPECT_EQ(T.Records[1].Seq, 3u);
}

TEST_F(RingFile, ConcurrentAppendsLoseNothing) {
  TraceWriter *W = make(1 << 16);
  ASSERT_NE(W, nullptr);
  constexpr int Threads = 4, Each = 5000;
  std::vector<std::thread> Workers;
  for (int I = 0; I < Threads; ++I)
    Workers.emplace_back([&, I] {
      for (int S = 1; S <= Each; ++S)
        put(*W, uint64_t(S), uint32_t(I + 1));
    });
  for (auto &T : Workers)
    T.join();
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  ASSERT_EQ(T.Records.size(), size_t(Threads * Each));
  std::vector<std::set<uint64_t>> Seen(Threads + 1);
  for (const Record &R : T.Records)
    Seen[R.Tid].insert(R.Seq);
  for (int I = 1; I <= Threads; ++I)
    EXPECT_EQ(Seen[size_t(I)].size(), size_t(Each));
}

// The first thread to append owns the ring's head and bumps it without a
// locked instruction; others that start while it appends take the head over.
TEST_F(RingFile, AppendsRacingTheHeadsOwnerLoseNothing) {
  TraceWriter *W = make(1 << 18);
  ASSERT_NE(W, nullptr);
  constexpr int Others = 3, OwnerEach = 100000, Each = 20000;
  std::atomic<bool> Started{false};
  std::thread Owner([&] {
    for (int S = 1; S <= OwnerEach; ++S) {
      put(*W, uint64_t(S), 1);
      if (S == 1000)
        Started.store(true);
    }
  });
  std::vector<std::thread> Workers;
  for (int I = 0; I < Others; ++I)
    Workers.emplace_back([&, I] {
      while (!Started.load())
        std::this_thread::yield();
      for (int S = 1; S <= Each; ++S)
        put(*W, uint64_t(S), uint32_t(I + 2));
    });
  Owner.join();
  for (auto &T : Workers)
    T.join();
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  ASSERT_EQ(T.Records.size(), size_t(OwnerEach + Others * Each));
  std::vector<std::set<uint64_t>> Seen(Others + 2);
  for (const Record &R : T.Records)
    Seen[R.Tid].insert(R.Seq);
  EXPECT_EQ(Seen[1].size(), size_t(OwnerEach));
  for (int I = 2; I < Others + 2; ++I)
    EXPECT_EQ(Seen[size_t(I)].size(), size_t(Each));
}

TEST_F(RingFile, SurvivesTheProcessBeingKilled) {
  std::string Path;
  int Pipe[2];
  ASSERT_EQ(pipe(Pipe), 0);
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    TraceWriter *W = make(256);
    for (uint64_t S = 1; S <= 5; ++S)
      put(*W, S);
    std::string P = W->path();
    ssize_t N = write(Pipe[1], P.c_str(), P.size());
    (void)N;
    close(Pipe[1]);
    raise(SIGKILL); // No exit handlers, no munmap, no msync.
  }
  close(Pipe[1]);
  char Buf[512] = {0};
  ssize_t N = read(Pipe[0], Buf, sizeof(Buf) - 1);
  ASSERT_GT(N, 0);
  Path.assign(Buf, size_t(N));
  int Status;
  waitpid(Child, &Status, 0);
  ASSERT_TRUE(WIFSIGNALED(Status));
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(Path, T, Error)) << Error;
  EXPECT_EQ(T.Records.size(), 5u);
  EXPECT_FALSE(T.exited());
}

TEST_F(RingFile, SyncSitesCountPerCallSite) {
  TraceWriter *W = make(64);
  ASSERT_NE(W, nullptr);
  PackedFrame A = packFrame(0, 0x40), B = packFrame(1, 0x40);
  for (int I = 0; I < 3; ++I)
    W->countSync(OpCode::CudaStreamSynchronize, A, 100);
  W->countSync(OpCode::CudaStreamSynchronize, B, 7);
  W->countSync(OpCode::CudaMemcpy, A, 5);
  RankTrace T;
  std::string Error;
  ASSERT_TRUE(readTraceFile(W->path(), T, Error)) << Error;
  ASSERT_EQ(T.Syncs.size(), 3u);
  uint64_t Total = 0;
  for (const SyncCount &C : T.Syncs) {
    if (C.Op == OpCode::CudaStreamSynchronize && C.Site == A) {
      EXPECT_EQ(C.Count, 3u);
      EXPECT_EQ(C.TotalNs, 300u);
      EXPECT_EQ(C.MaxNs, 100u);
    }
    Total += C.Count;
  }
  EXPECT_EQ(Total, 5u);
}

TEST_F(RingFile, LateRankRenamesTheFile) {
  TraceWriter *W = make(64, -1);
  ASSERT_NE(W, nullptr);
  EXPECT_NE(W->path().find("rank-unknown"), std::string::npos);
  W->setRank(5, 8);
  EXPECT_NE(W->path().find(".rank5."), std::string::npos);
  TraceHeaderPeek P;
  ASSERT_TRUE(peekTraceHeader(W->path(), P));
  EXPECT_EQ(P.Rank, 5);
}

TEST_F(RingFile, RejectsFilesThatAreNotTraces) {
  std::string Path = Dir + "/distlint-rt.x.rank0.1.trace";
  FILE *F = fopen(Path.c_str(), "w");
  ASSERT_NE(F, nullptr);
  fputs("hello", F);
  fclose(F);
  RankTrace T;
  std::string Error;
  EXPECT_FALSE(readTraceFile(Path, T, Error));
  EXPECT_NE(Error.find("not a distlint-rt trace"), std::string::npos);
  std::vector<std::string> Errors;
  EXPECT_TRUE(readTraceDir(Dir, Errors).empty());
  EXPECT_EQ(Errors.size(), 1u);
}
