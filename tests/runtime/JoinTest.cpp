//===- JoinTest.cpp - Verdicts for static findings ------------------------===//
#include "TestTraces.h"

#include "Join.h"
#include "ReportWriter.h"
#include "Sites.h"
#include "Symbolizer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace distlint::rt;
using namespace distlint::rt::test;

namespace {

constexpr uint64_t Main = 0x1000, Side = 0x2000;
const char *Source = "/src/train.cpp";

/// Offset 0xNN of the fake program is line NN of /src/train.cpp.
void seed(Symbolizer &S) {
  for (unsigned Line : {20u, 30u, 40u, 60u, 80u, 100u})
    S.addResolved(fakeModule(), Line, {SourceLoc{Source, Line, 5, "train"}});
}

Record coll(uint64_t Comm, int Rank, uint64_t Seq, unsigned Line, uint64_t Count = 8) {
  return OpBuilder(OpCode::NcclAllReduce, Comm, Rank, 2)
      .seq(Seq).count(Count).type(7).red(0).at(Line).time(Seq * 100).R;
}

std::vector<RankTrace> scenario() {
  std::vector<RankTrace> T = {rankTrace(0), rankTrace(1)};
  for (int R = 0; R < 2; ++R) {
    // Two uniform all-reduces at line 20, called from line 80.
    for (uint64_t S = 1; S <= 2; ++S) {
      Record Op = coll(Main, R, S, 20);
      Op.Frames[1] = frameAt(80);
      append(T[size_t(R)], Op);
    }
    // A runtime-only problem: the counts at line 60 differ by rank.
    append(T[size_t(R)], coll(Side, R, 1, 60, R == 0 ? 4 : 8));
    T[size_t(R)].Syncs.push_back({OpCode::CudaStreamSynchronize, frameAt(100), 3, 30, 10});
  }
  // Only rank 0 reaches line 30.
  append(T[0], coll(Main, 0, 3, 30));
  return T;
}

std::string writeFindings(const std::string &Body) {
  char Path[] = "/tmp/dlrt-findings-XXXXXX";
  int Fd = mkstemp(Path);
  EXPECT_GE(Fd, 0);
  ssize_t N = write(Fd, Body.data(), Body.size());
  EXPECT_EQ(size_t(N), Body.size());
  close(Fd);
  return Path;
}

const char *FindingsJson = R"({
  "tool": {"name": "distlint", "version": "0.1.0"},
  "findings": [
    {"rule": "distlint-rank-divergent-collective", "severity": "warning",
     "file": "/src/train.cpp", "line": 30, "column": 5,
     "message": "collective not reached by every rank", "notes": [], "fingerprint": "f30"},
    {"rule": "distlint-rank-divergent-collective", "severity": "warning",
     "file": "/src/train.cpp", "line": 20, "column": 5,
     "message": "collective under a rank condition", "notes": [], "fingerprint": "f20"},
    {"rule": "distlint-rank-divergent-collective", "severity": "warning",
     "file": "/src/train.cpp", "line": 40, "column": 5,
     "message": "collective only rank 7 issues", "notes": [], "fingerprint": "f40"},
    {"rule": "distlint-rank-divergent-collective", "severity": "warning",
     "file": "/src/train.cpp", "line": 80, "column": 3,
     "message": "call of a function that issues a collective", "notes": [], "fingerprint": "f80"},
    {"rule": "distlint-rank-divergent-collective", "severity": "warning",
     "file": "/src/other.cpp", "line": 9, "column": 3,
     "message": "helper issues a collective",
     "notes": [{"file": "/src/train.cpp", "line": 30, "column": 5, "message": "the collective"}],
     "fingerprint": "f9"},
    {"rule": "distlint-stray-device-sync", "severity": "warning",
     "file": "/src/train.cpp", "line": 100, "column": 5,
     "message": "device sync every step", "notes": [], "fingerprint": "f100"}
  ],
  "errors": []
})";

struct Fixture {
  Analysis A;
  Symbolizer Sym{"/nonexistent/symbolizer"};
  std::unique_ptr<Sites> S;
  JoinResult J;
  Fixture() : A(analyze(scenario(), nullptr)) {
    seed(Sym);
    S = std::make_unique<Sites>(A, Sym);
    std::string Path = writeFindings(FindingsJson);
    std::vector<StaticFinding> Findings;
    std::string Error;
    EXPECT_TRUE(readFindings(Path, Findings, Error)) << Error;
    unlink(Path.c_str());
    J = join(A, *S, Findings);
  }
  const JoinedFinding &byFingerprint(const std::string &F) {
    for (const JoinedFinding &X : J.Findings)
      if (X.Finding.Fingerprint == F)
        return X;
    static JoinedFinding None;
    ADD_FAILURE() << "no finding " << F;
    return None;
  }
};

} // namespace

TEST(Join, VerdictsFollowWhatTheRanksDid) {
  Fixture F;
  ASSERT_EQ(F.J.Findings.size(), 6u);
  const JoinedFinding &Divergent = F.byFingerprint("f30");
  EXPECT_EQ(Divergent.Result, Verdict::Confirmed) << Divergent.Evidence;
  EXPECT_EQ(Divergent.Counts.at(0), 1u);
  EXPECT_EQ(Divergent.Counts.at(1), 0u);

  const JoinedFinding &Uniform = F.byFingerprint("f20");
  EXPECT_EQ(Uniform.Result, Verdict::ReachedUniformly) << Uniform.Evidence;
  EXPECT_EQ(Uniform.Counts.at(0), 2u);
  EXPECT_EQ(Uniform.Counts.at(1), 2u);

  EXPECT_EQ(F.byFingerprint("f40").Result, Verdict::NotReached);

  // A caller's line matches through the recorded caller frame.
  const JoinedFinding &Caller = F.byFingerprint("f80");
  EXPECT_EQ(Caller.Result, Verdict::ReachedUniformly) << Caller.Evidence;
  EXPECT_FALSE(Caller.ViaNote);

  // A finding whose own line never ran, but whose note names the collective.
  const JoinedFinding &Noted = F.byFingerprint("f9");
  EXPECT_EQ(Noted.Result, Verdict::Confirmed) << Noted.Evidence;
  EXPECT_TRUE(Noted.ViaNote);

  // Host synchronizations count too.
  const JoinedFinding &Sync = F.byFingerprint("f100");
  EXPECT_EQ(Sync.Result, Verdict::ReachedUniformly) << Sync.Evidence;
  EXPECT_EQ(Sync.Counts.at(0), 3u);
}

TEST(Join, ProblemsNoFindingPredictedAreRuntimeOnly) {
  Fixture F;
  ASSERT_EQ(F.J.RuntimeOnly.size(), 1u);
  EXPECT_EQ(F.J.RuntimeOnly[0].Kind, "divergence");
  EXPECT_NE(F.J.RuntimeOnly[0].Summary.find("count=4"), std::string::npos)
      << F.J.RuntimeOnly[0].Summary;
}

TEST(Join, ReportsCarryTheVerdicts) {
  Fixture F;
  ReportInput In{F.A, *F.S, &F.J, "/traces", "findings.json"};
  std::ostringstream Text;
  writeTextReport(Text, In);
  EXPECT_NE(Text.str().find("confirmed"), std::string::npos);
  EXPECT_NE(Text.str().find("reached uniformly"), std::string::npos);
  EXPECT_NE(Text.str().find("not reached"), std::string::npos);
  EXPECT_NE(Text.str().find("runtime-only problems"), std::string::npos);
  EXPECT_NE(Text.str().find("/src/train.cpp:30"), std::string::npos) << Text.str();

  std::ostringstream Json;
  writeJsonReport(Json, In);
  auto J = nlohmann::json::parse(Json.str());
  ASSERT_EQ(J["findings"].size(), 6u);
  EXPECT_EQ(J["findings"][0]["verdict"], "confirmed");
  // Earliest first: the count mismatch at line 60 happened before line 30.
  EXPECT_EQ(J["divergences"][0]["issued"][0]["line"], 60);
  EXPECT_EQ(J["divergences"][1]["issued"][0]["line"], 30);
  EXPECT_FALSE(J["clean"].get<bool>());

  std::ostringstream Sarif;
  writeSarifReport(Sarif, In);
  auto S = nlohmann::json::parse(Sarif.str());
  EXPECT_EQ(S["version"], "2.1.0");
  ASSERT_EQ(S["runs"].size(), 1u);
  EXPECT_GE(S["runs"][0]["results"].size(), 2u);
  EXPECT_EQ(S["runs"][0]["results"][0]["ruleId"], "distlint-rt-divergence");
}

TEST(Join, MalformedFindingsAreRejected) {
  std::string Path = writeFindings("{\"tool\": {}}");
  std::vector<StaticFinding> Out;
  std::string Error;
  EXPECT_FALSE(readFindings(Path, Out, Error));
  EXPECT_NE(Error.find("no \"findings\" array"), std::string::npos);
  unlink(Path.c_str());
}
