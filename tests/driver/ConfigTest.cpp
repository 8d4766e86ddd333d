//===- ConfigTest.cpp - .distlint.yaml parsing and lookup ------------------===//
#include "input/Config.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace distlint;

namespace {
bool parse(const std::string &Text, DistlintConfig &C, std::string &Error,
           bool *Inherit = nullptr) {
  bool I = false;
  bool Ok = parseConfig(Text, "cfg.yaml", C, I, Error);
  if (Inherit)
    *Inherit = I;
  return Ok;
}

TEST(Config, ParsesAllKeys) {
  DistlintConfig C;
  std::string Error;
  bool Inherit = false;
  ASSERT_TRUE(parse("Rules: '-*,distlint-missing-*'\n"
                    "Severities:\n"
                    "  distlint-missing-timeout: error\n"
                    "RankSources: [mylib::Comm::rank]\n"
                    "WorldSizeSources:\n  - mylib::Comm::size\n"
                    "CollectiveWrappers: [mylib::sync_all, mylib::gather]\n"
                    "InheritParentConfig: true\n",
                    C, Error, &Inherit))
      << Error;
  EXPECT_TRUE(Inherit);
  EXPECT_TRUE(C.ruleEnabled("distlint-missing-timeout", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-rank-divergent-collective", ""));
  EXPECT_TRUE(C.ruleEnabled("distlint-rank-divergent-collective",
                            "distlint-rank-*"));
  EXPECT_EQ(C.severityOf("distlint-missing-timeout"), Severity::Error);
  EXPECT_EQ(C.severityOf("distlint-missing-set-epoch"), Severity::Warning);
  // A configured severity applies to the rule's notes too (it raises them);
  // an unconfigured rule keeps the rating its rule gives.
  EXPECT_EQ(C.severityOf("distlint-missing-timeout", Severity::Note),
            Severity::Error);
  EXPECT_EQ(C.severityOf("distlint-missing-set-epoch", Severity::Note),
            Severity::Note);
  // WarningsAsErrors raises warnings, never notes (as in clang-tidy).
  EXPECT_EQ(
      C.severityOf("distlint-missing-set-epoch", Severity::Note, "distlint-*"),
      Severity::Note);
  EXPECT_EQ(C.severityOf("distlint-missing-set-epoch", Severity::Warning,
                         "distlint-*"),
            Severity::Error);
  EXPECT_EQ(C.User.RankSources, std::vector<std::string>{"mylib::Comm::rank"});
  EXPECT_EQ(C.User.WorldSizeSources,
            std::vector<std::string>{"mylib::Comm::size"});
  EXPECT_EQ(C.User.CollectiveWrappers.size(), 2u);
}

TEST(Config, JsonSyntaxWorks) {
  DistlintConfig C;
  std::string Error;
  ASSERT_TRUE(parse("{\"Rules\": [\"-*\", \"distlint-stray-device-sync\"]}", C,
                    Error))
      << Error;
  EXPECT_TRUE(C.ruleEnabled("distlint-stray-device-sync", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-missing-timeout", ""));
}

TEST(Config, DefaultEnablesEveryRule) {
  DistlintConfig C;
  std::string Error;
  ASSERT_TRUE(parse("", C, Error)) << Error;
  EXPECT_TRUE(C.ruleEnabled("distlint-missing-timeout", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-missing-timeout", "-*"));
}

TEST(Config, ErrorsNameFileAndLine) {
  DistlintConfig C;
  std::string Error;
  EXPECT_FALSE(parse("Rules: x\nColour: red\n", C, Error));
  EXPECT_NE(Error.find("cfg.yaml:2: unknown key 'Colour'"), std::string::npos)
      << Error;
  EXPECT_FALSE(parse("Severities:\n  distlint-missing-timeout: loud\n", C,
                     Error));
  EXPECT_NE(Error.find("must be note, warning or error"), std::string::npos);
  EXPECT_FALSE(parse("Severities:\n  distlint-nope: error\n", C, Error));
  EXPECT_NE(Error.find("unknown rule 'distlint-nope'"), std::string::npos);
  EXPECT_FALSE(parse("Rules: [unclosed\n", C, Error));
  EXPECT_NE(Error.find("cfg.yaml:"), std::string::npos);
  EXPECT_FALSE(parse("- a\n- b\n", C, Error));
  EXPECT_EQ(Error.find('\n'), std::string::npos);
}

class TempTree : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("distlint-config", Root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }
  std::string path(llvm::StringRef Rel) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Rel);
    return std::string(P);
  }
  void write(llvm::StringRef Rel, llvm::StringRef Text) {
    std::string P = path(Rel);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  llvm::SmallString<256> Root;
};

TEST_F(TempTree, NearestConfigWinsUnlessItInherits) {
  write(".distlint.yaml", "Rules: '-distlint-missing-timeout'\n"
                          "RankSources: [outer::rank]\n");
  write("a/.distlint.yaml", "Rules: '-distlint-stray-device-sync'\n");
  write("b/.distlint.yaml", "InheritParentConfig: true\n"
                            "Rules: '-distlint-stray-device-sync'\n"
                            "RankSources: [inner::rank]\n");
  write("c/d/x.cpp", "");
  ConfigResolver R;
  DistlintConfig C;
  std::string Error;

  ASSERT_TRUE(R.configFor(path("a/x.cpp"), C, Error)) << Error;
  EXPECT_TRUE(C.ruleEnabled("distlint-missing-timeout", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-stray-device-sync", ""));
  EXPECT_TRUE(C.User.RankSources.empty());

  ASSERT_TRUE(R.configFor(path("b/x.cpp"), C, Error)) << Error;
  EXPECT_FALSE(C.ruleEnabled("distlint-missing-timeout", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-stray-device-sync", ""));
  EXPECT_EQ(C.User.RankSources,
            (std::vector<std::string>{"outer::rank", "inner::rank"}));

  ASSERT_TRUE(R.configFor(path("c/d/x.cpp"), C, Error)) << Error;
  EXPECT_FALSE(C.ruleEnabled("distlint-missing-timeout", ""));
  EXPECT_TRUE(C.ruleEnabled("distlint-stray-device-sync", ""));
}

TEST_F(TempTree, ExplicitConfigReplacesLookup) {
  write(".distlint.yaml", "Rules: '-*'\n");
  write("custom.yaml", "Rules: '-distlint-missing-timeout'\n");
  ConfigResolver R(path("custom.yaml"));
  DistlintConfig C;
  std::string Error;
  ASSERT_TRUE(R.configFor(path("x.cpp"), C, Error)) << Error;
  EXPECT_TRUE(C.ruleEnabled("distlint-stray-device-sync", ""));
  EXPECT_FALSE(C.ruleEnabled("distlint-missing-timeout", ""));
}

TEST_F(TempTree, MalformedConfigIsAnError) {
  write("bad/.distlint.yaml", "Rules: [\n");
  ConfigResolver R;
  DistlintConfig C;
  std::string Error;
  EXPECT_FALSE(R.configFor(path("bad/sub/x.cpp"), C, Error));
  EXPECT_NE(Error.find(".distlint.yaml"), std::string::npos) << Error;
}
} // namespace
