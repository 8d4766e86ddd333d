//===- ProjectIndexTest.cpp - Function summaries across TUs ---------------===//
#include "ProjectIndex.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <fstream>

using namespace distlint;

namespace {

api::ProjectFact fact(api::Role R, const std::string &What, unsigned Line) {
  api::ProjectFact F;
  F.TheRole = R;
  F.What = What;
  F.File = "/p/comm.cpp";
  F.Line = Line;
  return F;
}

api::ProjectFunction function(const std::string &Usr,
                              std::vector<api::ProjectFact> Facts,
                              std::vector<std::string> Overrides = {}) {
  api::ProjectFunction F;
  F.Usr = Usr;
  F.Name = "ns::" + Usr;
  F.Facts = std::move(Facts);
  F.Overrides = std::move(Overrides);
  return F;
}

/// comm.cpp defines a wrapper, a rank helper and two overriders of
/// Base::sum; train.cpp calls all of them and an unknown function.
ProjectIndex twoFiles() {
  ProjectIndex Index;
  TuExports Comm;
  Comm.Defines.push_back(
      function("wrap", {fact(api::Role::Collective, "MPI_Allreduce", 3)}));
  Comm.Defines.push_back(
      function("rank", {fact(api::Role::RankSource, "rank", 7)}));
  Comm.Defines.push_back(
      function("Flat::sum",
               {fact(api::Role::Collective, "MPI_Allreduce", 11),
                fact(api::Role::RankSource, "rank", 12)},
               {"Base::sum"}));
  Comm.Defines.push_back(
      function("Tree::sum", {fact(api::Role::Collective, "MPI_Reduce", 20)},
               {"Base::sum"}));
  TuExports Train;
  Train.References = {"wrap", "rank", "Base::sum", "unknown"};
  Index.update("/p/comm.cpp", ProjectIndex::encode(Comm));
  Index.update("/p/train.cpp", ProjectIndex::encode(Train));
  return Index;
}

TEST(ProjectIndex, ATuGetsTheFactsOfWhatItCalls) {
  ProjectIndex Index = twoFiles();
  std::string Digest;
  auto Facts = Index.factsFor("/p/train.cpp", Digest);
  ASSERT_NE(Facts, nullptr);
  EXPECT_FALSE(Digest.empty());
  EXPECT_EQ(Facts->ByUsr.size(), 3u);
  EXPECT_EQ(Facts->ByUsr.count("unknown"), 0u);
  EXPECT_EQ(Facts->ByUsr.at("wrap").Facts.front().What, "MPI_Allreduce");
  // The one that defines them references none of them.
  EXPECT_EQ(Index.factsFor("/p/comm.cpp", Digest), nullptr);
  EXPECT_TRUE(Digest.empty());
  EXPECT_EQ(Index.factsFor("/p/never-seen.cpp", Digest), nullptr);
}

TEST(ProjectIndex, AVirtualMethodIssuesWhatAnyOverriderIssues) {
  ProjectIndex Index = twoFiles();
  std::string Digest;
  auto Facts = Index.factsFor("/p/train.cpp", Digest);
  ASSERT_NE(Facts, nullptr);
  const auto &Base = Facts->ByUsr.at("Base::sum").Facts;
  ASSERT_EQ(Base.size(), 2u);
  EXPECT_EQ(Base[0].What, "MPI_Allreduce");
  EXPECT_EQ(Base[1].What, "MPI_Reduce");
  // What one overrider returns is not what every call returns.
  for (const api::ProjectFact &F : Base)
    EXPECT_EQ(F.TheRole, api::Role::Collective);
}

TEST(ProjectIndex, DigestFollowsTheFacts) {
  ProjectIndex Index = twoFiles();
  std::string Before, Same, After;
  Index.factsFor("/p/train.cpp", Before);
  Index.factsFor("/p/train.cpp", Same);
  EXPECT_EQ(Before, Same);
  TuExports Comm;
  Comm.Defines.push_back(
      function("wrap", {fact(api::Role::Collective, "MPI_Allreduce", 4)}));
  Index.update("/p/comm.cpp", ProjectIndex::encode(Comm));
  Index.factsFor("/p/train.cpp", After);
  EXPECT_NE(Before, After);
}

TEST(ProjectIndex, OnlyANewSummaryNeedsWriting) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("project-index", Dir));
  std::string Path = ProjectIndex::pathFor(Dir.str().str(), "/p");
  ProjectIndex Index = twoFiles();
  EXPECT_TRUE(Index.dirty());
  ASSERT_TRUE(Index.save(Path));
  EXPECT_FALSE(Index.dirty());
  TuExports Train;
  Train.References = {"wrap", "rank", "Base::sum", "unknown"};
  Index.update("/p/train.cpp", ProjectIndex::encode(Train));
  EXPECT_FALSE(Index.dirty()) << "the same summaries again";
  Train.References.push_back("another");
  Index.update("/p/train.cpp", ProjectIndex::encode(Train));
  EXPECT_TRUE(Index.dirty());
  llvm::sys::fs::remove_directories(Dir);
}

TEST(ProjectIndex, MalformedSummariesLeaveTheEntry) {
  ProjectIndex Index = twoFiles();
  Index.update("/p/comm.cpp", "{not json");
  Index.update("/p/comm.cpp",
               R"({"defines":[{"usr":"x","facts":[{"role":"NoSuchRole"}]}],)"
               R"("references":[]})");
  Index.update("/p/comm.cpp", "");
  EXPECT_EQ(Index.functions(), 4u);
}

TEST(ProjectIndex, SavedAndLoaded) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("project-index", Dir));
  std::string Path = ProjectIndex::pathFor(Dir.str().str(), "/p");
  EXPECT_NE(Path, ProjectIndex::pathFor(Dir.str().str(), "/q"));
  ProjectIndex Fresh;
  std::string Why;
  EXPECT_FALSE(Fresh.load(Path, Why));
  EXPECT_NE(Why.find("no project index"), std::string::npos);
  ASSERT_TRUE(twoFiles().save(Path));
  ProjectIndex Loaded;
  ASSERT_TRUE(Loaded.load(Path, Why)) << Why;
  EXPECT_TRUE(Loaded.writtenAt().has_value());
  EXPECT_EQ(Loaded.files(), 2u);
  std::string A, B;
  twoFiles().factsFor("/p/train.cpp", A);
  Loaded.factsFor("/p/train.cpp", B);
  EXPECT_EQ(A, B);
  std::ofstream(Path) << "{\"version\": 99}";
  EXPECT_FALSE(Loaded.load(Path, Why));
  EXPECT_EQ(Loaded.files(), 0u);
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
