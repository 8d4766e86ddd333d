//===- ResultSerializationTest.cpp - per-TU results as bytes --------------===//
#include "input/ResultSerialization.h"

#include <gtest/gtest.h>

using namespace distlint;

namespace {
TranslationUnitResult sample() {
  TranslationUnitResult R;
  Finding F;
  F.Rule = "distlint-rank-divergent-collective";
  F.Sev = Severity::Error;
  F.Loc = {"/repo/src/train.cpp", 12, 5};
  F.Message = "collective reached only by some ranks";
  F.Notes.push_back({{"/repo/src/train.cpp", 11, 7}, "rank comes from here"});
  F.Notes.push_back({{"/repo/src/util.h", 3, 1}, std::string("nul\0byte", 8)});
  F.Fingerprint = "0123456789abcdef";
  R.Findings.push_back(F);
  Finding G;
  G.Rule = "distlint-missing-timeout";
  G.Sev = Severity::Note;
  G.Loc = {"/repo/b.cpp", 4000000000u, 1};
  G.Message = "";
  R.Findings.push_back(G);
  R.Errors.push_back({"/repo/src/broken.cpp", "analysis crashed: SIGSEGV"});
  R.Errors.push_back({"/repo/src/skipped.cpp",
                      "not analyzed: malformed .distlint.yaml",
                      {},
                      FileErrorKind::NotAnalyzed});
  R.ToolErrors.push_back("malformed .distlint.yaml");
  R.SuppressedByNoLint = 7;
  R.HeaderFiltered = 2;
  R.IncludeClosure = {"/repo/src/train.cpp", "/usr/include/torch/torch.h"};
  R.Milliseconds = 1234;
  R.UsedPreamble = true;
  R.LimitsHit = {"parameter-field writes in fmt::BasicWriter::write"};
  return R;
}

void expectEqual(const TranslationUnitResult &A,
                 const TranslationUnitResult &B) {
  ASSERT_EQ(A.Findings.size(), B.Findings.size());
  for (size_t I = 0; I < A.Findings.size(); ++I) {
    const Finding &X = A.Findings[I], &Y = B.Findings[I];
    EXPECT_EQ(X.Rule, Y.Rule);
    EXPECT_EQ(X.Sev, Y.Sev);
    EXPECT_EQ(X.Loc.File, Y.Loc.File);
    EXPECT_EQ(X.Loc.Line, Y.Loc.Line);
    EXPECT_EQ(X.Loc.Column, Y.Loc.Column);
    EXPECT_EQ(X.Message, Y.Message);
    EXPECT_EQ(X.Fingerprint, Y.Fingerprint);
    ASSERT_EQ(X.Notes.size(), Y.Notes.size());
    for (size_t J = 0; J < X.Notes.size(); ++J) {
      EXPECT_EQ(X.Notes[J].Loc.File, Y.Notes[J].Loc.File);
      EXPECT_EQ(X.Notes[J].Loc.Line, Y.Notes[J].Loc.Line);
      EXPECT_EQ(X.Notes[J].Message, Y.Notes[J].Message);
    }
  }
  ASSERT_EQ(A.Errors.size(), B.Errors.size());
  for (size_t I = 0; I < A.Errors.size(); ++I) {
    EXPECT_EQ(A.Errors[I].File, B.Errors[I].File);
    EXPECT_EQ(A.Errors[I].Message, B.Errors[I].Message);
    EXPECT_EQ(A.Errors[I].Kind, B.Errors[I].Kind);
  }
  EXPECT_EQ(A.ToolErrors, B.ToolErrors);
  EXPECT_EQ(A.SuppressedByNoLint, B.SuppressedByNoLint);
  EXPECT_EQ(A.HeaderFiltered, B.HeaderFiltered);
  EXPECT_EQ(A.IncludeClosure, B.IncludeClosure);
  EXPECT_EQ(A.Milliseconds, B.Milliseconds);
  EXPECT_EQ(A.UsedPreamble, B.UsedPreamble);
  EXPECT_EQ(A.LimitsHit, B.LimitsHit);
}
} // namespace

TEST(ResultSerialization, RoundTripsEveryField) {
  TranslationUnitResult In = sample(), Out;
  std::string Error;
  ASSERT_TRUE(deserializeResult(serializeResult(In), Out, Error)) << Error;
  expectEqual(In, Out);
}

TEST(ResultSerialization, RoundTripsAnEmptyResult) {
  TranslationUnitResult Out;
  Out.SuppressedByNoLint = 3;
  std::string Error;
  ASSERT_TRUE(
      deserializeResult(serializeResult(TranslationUnitResult()), Out, Error));
  EXPECT_TRUE(Out.Findings.empty());
  EXPECT_EQ(Out.SuppressedByNoLint, 0u);
}

TEST(ResultSerialization, RejectsEveryTruncation) {
  std::string Bytes = serializeResult(sample());
  for (size_t Len = 0; Len < Bytes.size(); ++Len) {
    TranslationUnitResult Out;
    std::string Error;
    EXPECT_FALSE(
        deserializeResult(llvm::StringRef(Bytes).take_front(Len), Out, Error))
        << "prefix of " << Len << " bytes accepted";
    EXPECT_FALSE(Error.empty());
    EXPECT_TRUE(Out.Findings.empty());
  }
}

TEST(ResultSerialization, RejectsTrailingBytesBadMagicAndVersion) {
  std::string Bytes = serializeResult(sample());
  TranslationUnitResult Out;
  std::string Error;
  EXPECT_FALSE(deserializeResult(Bytes + "x", Out, Error));
  EXPECT_NE(Error.find("trailing"), std::string::npos) << Error;
  std::string BadMagic = Bytes;
  BadMagic[0] = 'X';
  EXPECT_FALSE(deserializeResult(BadMagic, Out, Error));
  EXPECT_NE(Error.find("magic"), std::string::npos) << Error;
  std::string BadVersion = Bytes;
  BadVersion[4] = static_cast<char>(ResultFormatVersion + 1);
  EXPECT_FALSE(deserializeResult(BadVersion, Out, Error));
  EXPECT_NE(Error.find("version"), std::string::npos) << Error;
}

TEST(ResultSerialization, ForgedCountsAreRejectedBeforeAllocating) {
  // Magic, the current version, then a finding count of 0xFFFFFFFF with
  // no data.
  std::string Bytes("DLTU\x00\x00\x00\x00\xff\xff\xff\xff", 12);
  Bytes[4] = static_cast<char>(ResultFormatVersion);
  TranslationUnitResult Out;
  std::string Error;
  EXPECT_FALSE(deserializeResult(Bytes, Out, Error));
  EXPECT_NE(Error.find("exceeds"), std::string::npos) << Error;
  // A bad severity byte.
  std::string Sev = serializeResult(sample());
  // magic(4) version(4) count(4) rule-len(4) rule(N): then the severity.
  size_t SevAt = 12 + 4 + sample().Findings[0].Rule.size();
  Sev[SevAt] = 9;
  EXPECT_FALSE(deserializeResult(Sev, Out, Error));
  EXPECT_NE(Error.find("severity"), std::string::npos) << Error;
}
