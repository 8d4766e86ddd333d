//===- FingerprintTest.cpp ------------------------------------------------===//
#include "report/Fingerprint.h"

#include <gtest/gtest.h>

using namespace distlint;

namespace {
TEST(Fingerprint, NormalizesWhitespaceAndComments) {
  EXPECT_EQ(normalizeSourceLine("  if (rank == 0)   MPI_Barrier(c);  // hi"),
            "if (rank == 0) MPI_Barrier(c);");
  EXPECT_EQ(normalizeSourceLine("\tfoo(\"a  //  b\");"), "foo(\"a  //  b\");");
  EXPECT_EQ(normalizeSourceLine("x = 1; /* c */"), "x = 1;");
}

TEST(Fingerprint, IgnoresLineNumbersButNotContent) {
  std::string A = fingerprintKey("r", "src/a.cpp", "  barrier();", "train");
  EXPECT_EQ(A, fingerprintKey("r", "src/a.cpp", "barrier();  // moved", "train"));
  EXPECT_NE(A, fingerprintKey("r2", "src/a.cpp", "barrier();", "train"));
  EXPECT_NE(A, fingerprintKey("r", "src/b.cpp", "barrier();", "train"));
  EXPECT_NE(A, fingerprintKey("r", "src/a.cpp", "barrier2();", "train"));
  EXPECT_NE(A, fingerprintKey("r", "src/a.cpp", "barrier();", "eval"));
  EXPECT_EQ(A.size(), 32u);
}

Finding finding(unsigned Line, const std::string &Key) {
  Finding F;
  F.Rule = "r";
  F.Loc = {"/p/a.cpp", Line, 3};
  F.Message = "m";
  F.Fingerprint = Key;
  return F;
}

TEST(Fingerprint, IdenticalLinesGetDistinctStableFingerprints) {
  std::vector<Finding> Before = {finding(10, "k"), finding(20, "k"),
                                 finding(30, "other")};
  // The same findings after 5 lines were inserted at the top of the file.
  std::vector<Finding> After = {finding(15, "k"), finding(25, "k"),
                                finding(35, "other")};
  finalizeFingerprints(Before);
  finalizeFingerprints(After);
  EXPECT_NE(Before[0].Fingerprint, Before[1].Fingerprint);
  for (size_t I = 0; I < Before.size(); ++I)
    EXPECT_EQ(Before[I].Fingerprint, After[I].Fingerprint);
}
} // namespace

namespace {
// Baselines are committed to repositories: the fingerprint format must not
// change silently. Expected values computed independently:
//   k = sha1("r\0src/a.cpp\0if (rank == 0) barrier();\0train\0")[:32 hex]
//   fingerprint = sha1(k + ":" + occurrence)[:32 hex]
TEST(Fingerprint, FormatIsStable) {
  std::string Key = fingerprintKey("r", "src/a.cpp",
                                   "  if (rank == 0)   barrier(); // x", "train");
  EXPECT_EQ(Key, "03f15d59374e9b16126be93b0ece2645");
  std::vector<Finding> Fs = {finding(1, Key), finding(2, Key)};
  finalizeFingerprints(Fs);
  EXPECT_EQ(Fs[0].Fingerprint, "a2f579ad2791f13ea0b20e6762994abe");
  EXPECT_EQ(Fs[1].Fingerprint, "51c9f2aa7ed7ac99ddf4da992bf8050f");
}
} // namespace
