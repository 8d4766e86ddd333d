//===- ResultCacheTest.cpp - Answers do not depend on the cache budget ----===//
//
// With Budget::ResultCacheBytes = 0 every function body is dropped as soon as
// nobody holds it and rebuilt on the next question; the answers must be the
// ones of an engine that keeps every body.
//
//===----------------------------------------------------------------------===//
#include "ApiTestSupport.h"
#include "engine/Engine.h"
#include "engine/cfg/CFGFacts.h"

#include "gtest/gtest.h"

using namespace distlint;

namespace {

const char *CacheTestProgram = R"cpp(
#include <mpi.h>
#include <stdlib.h>
static int myRank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
static void rankInto(int *out) { *out = myRank(); }
static void sum(int *a, int *b, int n) {
  MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // @sum
}
static void die() { MPI_Abort(MPI_COMM_WORLD, 1); }
// Recursion: its first analysis answers with a partial result.
static int down(int n);
static int up(int n) { return n > 0 ? down(n - 1) : myRank(); }
static int down(int n) { return n > 0 ? up(n - 1) : 0; }
void stepper(int n, int *a, int *b) {
  int r = 0;
  rankInto(&r);
  if (r == 0) // @branch
    sum(a, b, n); // @callsum
  if (n < 0)
    die();
  MPI_Barrier(MPI_COMM_WORLD); // @barrier
  int k = up(n);
  MPI_Bcast(a, k, MPI_INT, 0, MPI_COMM_WORLD); // @bcast
  // Varies through control only: a rebuilt body needs the branch taints.
  int chunk = 4;
  if (r == 1)
    chunk = 8;
  MPI_Bcast(a, chunk, MPI_INT, 0, MPI_COMM_WORLD); // @control
  auto later = [&]() {
    MPI_Bcast(b, r, MPI_INT, 0, MPI_COMM_WORLD); // @lambda
  };
  later();
}
void caller(int *a, int *b) {
  stepper(myRank(), a, b); // @passes
  for (int i = 0; i < 3; ++i)
    MPI_Allreduce(a, b, i, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // @loop
}
)cpp";

struct Analyzed {
  explicit Analyzed(size_t CacheBytes) : S(CacheTestProgram) {
    if (!S.ok())
      return;
    E = std::make_unique<Engine>(S.context(), Api);
    E->limits().ResultCacheBytes = CacheBytes;
  }
  /// Every answer the rules could ask for at the marked calls, as text.
  std::string answers() {
    std::string Out;
    const std::pair<const char *, const char *> Calls[] = {
        {"@sum", "MPI_Allreduce"},   {"@callsum", "sum"},
        {"@barrier", "MPI_Barrier"}, {"@bcast", "MPI_Bcast"},
        {"@control", "MPI_Bcast"},   {"@lambda", "MPI_Bcast"},
        {"@passes", "stepper"},      {"@loop", "MPI_Allreduce"}};
    for (auto [Marker, Name] : Calls) {
      const clang::CallExpr *Call = S.call(Marker, Name);
      if (!Call)
        return std::string("no call at ") + Marker;
      Out += std::string(Marker) + ":";
      Out += E->collectiveAt(Call) ? " collective" : " plain";
      if (auto D = E->divergenceAt(Call))
        Out += " diverges(" + D->Origin.What.str() +
               (D->PassedAt ? ", passed" : "") + ")";
      for (const Engine::ArgumentMismatch &M : E->mismatchedArguments(Call))
        Out += std::string(" mismatch(") + agreedArgumentName(M.What) + ")";
      for (const clang::Expr *Arg : Call->arguments())
        Out += E->uniformity(Arg).Uniform ? " u" : " v";
      for (const clang::Stmt *Branch : E->controllingBranches(Call))
        Out += E->branchUniformity(Branch).Uniform ? " ub" : " vb";
      Out += "\n";
    }
    for (const clang::FunctionDecl *FD : E->userFunctions())
      Out += FD->getNameAsString() + ": " +
             std::to_string(E->collectiveSites(FD).size()) + " sites" +
             (E->summary(FD).NoReturn ? ", no return" : "") + "\n";
    return Out;
  }
  apitest::Snippet S;
  api::ApiIndex Api;
  std::unique_ptr<Engine> E;
};

TEST(ResultCache, AnswersDoNotDependOnTheBudget) {
  Analyzed Kept(size_t(1) << 30), Dropped(0);
  ASSERT_TRUE(Kept.S.ok());
  std::string Expected = Kept.answers();
  EXPECT_NE(Expected.find("@callsum: collective diverges(rank)"),
            std::string::npos)
      << Expected;
  EXPECT_NE(Expected.find("@control: collective mismatch(count)"),
            std::string::npos)
      << Expected;
  EXPECT_EQ(Kept.E->limits().ResultCacheDrops, 0u);
  // Asked twice: the second round of questions meets dropped bodies only.
  EXPECT_EQ(Dropped.answers(), Expected);
  EXPECT_EQ(Dropped.answers(), Expected);
  EXPECT_GT(Dropped.E->limits().ResultCacheDrops, 0u);
  EXPECT_GT(Dropped.E->limits().ResultCacheRebuilds, 0u);
}

TEST(ResultCache, HeldFactsSurviveOtherQuestions) {
  // A FactsRef pins its function's body: questions about other functions
  // (which drop every unpinned body at budget 0) leave it in place.
  Analyzed A(0);
  ASSERT_TRUE(A.S.ok());
  const auto *Stepper =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(A.S.decl("stepper"));
  ASSERT_TRUE(Stepper);
  FactsRef F = A.E->facts(Stepper);
  ASSERT_TRUE(F);
  const clang::CFG *Graph = &F->cfg();
  unsigned Drops = A.E->limits().ResultCacheDrops;
  for (const clang::FunctionDecl *FD : A.E->userFunctions())
    if (FD != Stepper)
      (void)A.E->collectiveSites(FD);
  EXPECT_GT(A.E->limits().ResultCacheDrops, Drops);
  FactsRef Again = A.E->facts(Stepper);
  EXPECT_EQ(&Again->cfg(), Graph);
}

TEST(ResultCache, CallersInlineTheTreesOfDroppedCallees) {
  // The rules ask about a callee first, then about its caller, whose summary
  // inlines the callee's collective sequence: that comes from the callee's
  // tree, kept with its result, not from rebuilding its dropped body.
  apitest::Snippet S(R"cpp(
#include <mpi.h>
static void sum(int *a, int n) {
  MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // @sum
}
void caller(int *a, int n) {
  int k = n * 2;
  for (int i = 0; i < k; ++i)
    a[i] += i; // Makes the caller's body the largest: it stays resident.
  sum(a, k); // @first
  sum(a, n);
}
)cpp");
  ASSERT_TRUE(S.ok());
  api::ApiIndex Api;
  Engine E(S.context(), Api);
  E.limits().ResultCacheBytes = 0;
  const auto *Caller =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(S.decl("caller"));
  ASSERT_TRUE(Caller && S.call("@first", "sum"));
  (void)E.divergenceAt(S.call("@sum", "MPI_Allreduce"));
  unsigned Drops = E.limits().ResultCacheDrops;
  // A question about the caller drops the callee's body.
  (void)E.uniformity(S.call("@first", "sum")->getArg(1));
  ASSERT_GT(E.limits().ResultCacheDrops, Drops);
  unsigned Rebuilds = E.limits().ResultCacheRebuilds;
  EXPECT_TRUE(E.summary(Caller).IssuesCollective);
  EXPECT_EQ(E.limits().ResultCacheRebuilds, Rebuilds);
}

} // namespace
