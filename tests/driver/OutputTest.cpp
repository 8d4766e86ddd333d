//===- OutputTest.cpp - text, JSON and SARIF writers ----------------------===//
#include "report/Output.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace distlint;
using Json = nlohmann::json;

namespace {
AnalysisResult sample() {
  AnalysisResult R;
  Finding F;
  F.Rule = "distlint-rank-divergent-collective";
  F.Loc = {"/repo/src/train.cpp", 12, 5};
  F.Message = "collective reached only by some ranks";
  F.Notes.push_back({{"/repo/src/train.cpp", 11, 7}, "rank comes from here"});
  F.Fingerprint = "0123456789abcdef0123456789abcdef";
  R.Findings.push_back(F);
  Finding G = F;
  G.Rule = "distlint-missing-timeout";
  G.Sev = Severity::Error;
  G.Loc = {"/elsewhere/x.cpp", 3, 1};
  G.Notes.clear();
  G.Message = "no timeout";
  R.Findings.push_back(G);
  R.Errors.push_back({"/repo/src/broken.cpp", "broken.cpp:1:10: error: x"});
  return R;
}

OutputOptions options() {
  OutputOptions O;
  O.ProjectRoot = "/repo";
  O.ToolVersion = "9.9.9";
  O.Rules = {{"distlint-rank-divergent-collective", "Summary one",
              "Longer description.", "# page\n\nBody."}};
  return O;
}

std::string render(OutputFormat F) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeResult(F, sample(), options(), OS);
  return S;
}

TEST(TextOutput, IsClangStyle) {
  EXPECT_EQ(render(OutputFormat::Text),
            "/repo/src/train.cpp:12:5: warning: collective reached only by "
            "some ranks [distlint-rank-divergent-collective]\n"
            "/repo/src/train.cpp:11:7: note: rank comes from here\n"
            "/elsewhere/x.cpp:3:1: error: no timeout [distlint-missing-timeout]\n");
}

TEST(ToolErrors, AreClangStyleAtTheirOwnPlace) {
  std::vector<FileError> Errors = {
      {"/repo/src/nowhere.cpp", "no such file", {}},
      {"/repo/src/a.cpp", "/repo/src/a.h:3:4: unknown type name 'T'",
       {"/repo/src/a.h", 3, 4}},
      {"/repo/src/b.cpp", "/repo/src/b.cpp:7:2: expected ';'",
       {"/repo/src/b.cpp", 7, 2}}};
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeToolErrors(Errors, OS, /*Color=*/false);
  EXPECT_EQ(OS.str(),
            "/repo/src/nowhere.cpp:1:1: error: no such file\n"
            "/repo/src/a.h:3:4: error: unknown type name 'T' (in translation "
            "unit /repo/src/a.cpp)\n"
            "/repo/src/b.cpp:7:2: error: expected ';'\n");
}

TEST(TextOutput, ColorOnlyWhenAsked) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS.enable_colors(true);
  OutputOptions O = options();
  O.Color = true;
  writeText(sample(), O, OS);
  EXPECT_NE(S.find("\x1b["), std::string::npos);
  EXPECT_EQ(render(OutputFormat::Text).find("\x1b["), std::string::npos);
}

TEST(JsonOutput, HasTheDocumentedShape) {
  Json J = Json::parse(render(OutputFormat::Json));
  EXPECT_EQ(J["tool"]["name"], "distlint");
  EXPECT_EQ(J["tool"]["version"], "9.9.9");
  ASSERT_EQ(J["findings"].size(), 2u);
  const Json &F = J["findings"][0];
  EXPECT_EQ(F["rule"], "distlint-rank-divergent-collective");
  EXPECT_EQ(F["severity"], "warning");
  EXPECT_EQ(F["file"], "/repo/src/train.cpp");
  EXPECT_EQ(F["line"], 12);
  EXPECT_EQ(F["column"], 5);
  EXPECT_EQ(F["message"], "collective reached only by some ranks");
  EXPECT_EQ(F["fingerprint"], "0123456789abcdef0123456789abcdef");
  ASSERT_EQ(F["notes"].size(), 1u);
  EXPECT_EQ(F["notes"][0]["line"], 11);
  EXPECT_EQ(F["notes"][0]["column"], 7);
  EXPECT_EQ(F["notes"][0]["file"], "/repo/src/train.cpp");
  EXPECT_EQ(F["notes"][0]["message"], "rank comes from here");
  EXPECT_EQ(J["findings"][1]["severity"], "error");
  ASSERT_EQ(J["errors"].size(), 1u);
  EXPECT_EQ(J["errors"][0]["file"], "/repo/src/broken.cpp");
}

TEST(SarifOutput, IsWhatCodeScanningReads) {
  Json J = Json::parse(render(OutputFormat::Sarif));
  EXPECT_EQ(J["version"], "2.1.0");
  const Json &Run = J["runs"][0];
  EXPECT_EQ(Run["originalUriBaseIds"]["%SRCROOT%"]["uri"], "file:///repo/");
  const Json &Rules = Run["tool"]["driver"]["rules"];
  ASSERT_EQ(Rules.size(), 2u); // the described rule + the one used
  EXPECT_EQ(Rules[0]["id"], "distlint-rank-divergent-collective");
  EXPECT_EQ(Rules[0]["name"], "RankDivergentCollective");
  EXPECT_EQ(Rules[0]["shortDescription"]["text"], "Summary one.");
  EXPECT_EQ(Rules[0]["fullDescription"]["text"], "Longer description.");
  EXPECT_EQ(Rules[0]["help"]["markdown"], "# page\n\nBody.");
  EXPECT_EQ(Rules[1]["id"], "distlint-missing-timeout");

  const Json &R0 = Run["results"][0];
  EXPECT_EQ(R0["ruleId"], "distlint-rank-divergent-collective");
  EXPECT_EQ(R0["ruleIndex"], 0);
  EXPECT_EQ(R0["level"], "warning");
  const Json &Loc = R0["locations"][0]["physicalLocation"];
  EXPECT_EQ(Loc["artifactLocation"]["uri"], "src/train.cpp");
  EXPECT_EQ(Loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
  EXPECT_EQ(Loc["region"]["startLine"], 12);
  EXPECT_EQ(Loc["region"]["startColumn"], 5);
  EXPECT_EQ(R0["partialFingerprints"]["distlintFingerprint/v1"],
            "0123456789abcdef0123456789abcdef");
  ASSERT_EQ(R0["relatedLocations"].size(), 1u);
  EXPECT_EQ(R0["relatedLocations"][0]["message"]["text"],
            "rank comes from here.");
  EXPECT_EQ(
      R0["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 11);

  // Outside the project root: an absolute file URI, no base id.
  const Json &R1 = Run["results"][1];
  EXPECT_EQ(R1["level"], "error");
  EXPECT_EQ(R1["ruleIndex"], 1);
  EXPECT_EQ(R1["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "file:///elsewhere/x.cpp");
  EXPECT_EQ(Run["invocations"][0]["executionSuccessful"], false);
}

TEST(SarifOutput, EncodesUris) {
  AnalysisResult R;
  Finding F;
  F.Rule = "r";
  F.Loc = {"/repo/my dir/a#b.cpp", 1, 1};
  F.Message = "m";
  R.Findings.push_back(F);
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeSarif(R, options(), OS);
  Json J = Json::parse(S);
  EXPECT_EQ(J["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
             ["artifactLocation"]["uri"],
            "my%20dir/a%23b.cpp");
}
} // namespace
