//===- SequenceTest.cpp - Collective sequences and their comparison -------===//
#include "engine/collectives/Sequence.h"
#include "ApiTestSupport.h"
#include "engine/Engine.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/collectives/Divergence.h"
#include "engine/collectives/RankClasses.h"
#include "engine/collectives/SequenceBuilder.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace distlint;
using namespace distlint::collectives;

namespace {

const api::ApiEntry BarrierRow{
    api::Family::Mpi, api::Role::Collective, "MPI_Barrier", {}};
const api::ApiEntry AllreduceRow{
    api::Family::Mpi, api::Role::Collective, "MPI_Allreduce", {}};
const api::ApiEntry BcastRow{
    api::Family::Mpi, api::Role::Collective, "MPI_Bcast", {}};
const api::ApiEntry SendRow{
    api::Family::Mpi, api::Role::PointToPoint, "MPI_Ssend", {}};

NodeRef tok(const api::ApiEntry &Row, ArgKey Root = {}, ArgKey Comm = {}) {
  Token T;
  T.Op = &Row;
  T.Kind = Row.TheRole == api::Role::PointToPoint ? TokenKind::PointToPoint
                                                  : TokenKind::Collective;
  T.Root = Root;
  T.Comm = Comm;
  return Node::token(T);
}
NodeRef barrier() { return tok(BarrierRow); }
NodeRef allreduce() { return tok(AllreduceRow); }
NodeRef bcast(int Root = 0) { return tok(BcastRow, ArgKey::integer(Root)); }

ChoiceKey uniformKey(uint64_t Id) { return {Id, true}; }

std::optional<FirstDifference> diff(const NodeRef &A, const NodeRef &B) {
  CompareBudget Budget;
  auto D = firstDifference(A, B, Budget);
  EXPECT_FALSE(Budget.Exhausted);
  return D;
}

std::string sideName(const Side &S) { return S.Tok ? S.Tok->name() : "end"; }

TEST(Sequence, ConstructorsNormalize) {
  EXPECT_EQ(print(Node::seq({Node::empty(), barrier(),
                             Node::seq({allreduce(), Node::empty()})})),
            "MPI_Barrier MPI_Allreduce");
  // Nothing after a fail-stop is issued.
  EXPECT_EQ(print(Node::seq({barrier(), Node::failStop(), allreduce()})),
            "MPI_Barrier !");
  // A choice between "end the job" and "nothing" issues nothing.
  EXPECT_EQ(print(Node::alt(uniformKey(1), {Node::failStop(), Node::empty()})),
            "");
  EXPECT_TRUE(alwaysFailStops(
      Node::alt(uniformKey(1), {Node::failStop(), Node::failStop()})));
  EXPECT_FALSE(alwaysFailStops(Node::loop(uniformKey(2), Node::failStop())));
  EXPECT_EQ(print(Node::loop(uniformKey(2),
                             Node::alt(uniformKey(3), {barrier(), bcast()}))),
            "({MPI_Barrier|MPI_Bcast})*");
}

TEST(Sequence, OrderNotCount) {
  // The issue's example: the same collectives in another order.
  auto D = diff(Node::seq({barrier(), allreduce()}),
                Node::seq({allreduce(), barrier()}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::Operation);
  EXPECT_EQ(sideName(D->A), "MPI_Barrier");
  EXPECT_EQ(sideName(D->B), "MPI_Allreduce");
  EXPECT_EQ(D->A.Position, 0u);
  // Equal counts, difference at the second position.
  D = diff(Node::seq({bcast(), barrier(), allreduce()}),
           Node::seq({bcast(), allreduce(), barrier()}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->A.Position, 1u);
  EXPECT_FALSE(diff(Node::seq({barrier(), allreduce()}),
                    Node::seq({barrier(), allreduce()})));
}

TEST(Sequence, MissingOnOneSide) {
  auto D = diff(Node::seq({bcast(), barrier()}), bcast());
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::MissingOnOneSide);
  EXPECT_EQ(sideName(D->A), "MPI_Barrier");
  EXPECT_EQ(sideName(D->B), "end");
  EXPECT_EQ(D->A.Position, 1u);
  EXPECT_FALSE(diff(Node::empty(), Node::empty()));
}

TEST(Sequence, AChoiceOfTwoValuesDiffersFromAConstantItMayNotTake) {
  int ByA = 0, ByB = 0;
  ArgKey TwoOrOne = ArgKey::choice(&ByA, 2, 1);
  EXPECT_TRUE(TwoOrOne.surelyDiffers(ArgKey::integer(1)));
  EXPECT_TRUE(ArgKey::integer(2).surelyDiffers(TwoOrOne));
  // The same choice is made alike on every rank.
  EXPECT_FALSE(TwoOrOne.surelyDiffers(ArgKey::choice(&ByA, 2, 1)));
  // Another choice of the same values may still be made the other way.
  EXPECT_TRUE(TwoOrOne.surelyDiffers(ArgKey::choice(&ByB, 2, 1)));
  EXPECT_FALSE(ArgKey::integer(3).surelyDiffers(ArgKey::integer(3)));
  EXPECT_FALSE(TwoOrOne.surelyDiffers(ArgKey()));
}

TEST(Sequence, ArgumentsThatMustAgree) {
  auto D = diff(bcast(0), bcast(1));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::Root);
  // Unknown roots may well be equal.
  EXPECT_FALSE(diff(tok(BcastRow), bcast(1)));
  int World, Dup;
  D = diff(tok(BarrierRow, {}, ArgKey::symbol(&World)),
           tok(BarrierRow, {}, ArgKey::symbol(&Dup)));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::Communicator);
  EXPECT_FALSE(diff(tok(BarrierRow, {}, ArgKey::symbol(&World)),
                    tok(BarrierRow, {}, ArgKey::symbol(&World))));
}

TEST(Sequence, ParametersAreDecidedByEachCall) {
  int Helper = 0, Other = 0;
  NodeRef Body =
      Node::seq({barrier(), tok(BcastRow, ArgKey::param(&Helper, 1))});
  ASSERT_TRUE(Body->HasParamKeys);
  // Unsubstituted, a parameter may be anything its callers pass.
  EXPECT_FALSE(ArgKey::param(&Helper, 1).surelyDiffers(ArgKey::integer(0)));
  EXPECT_FALSE(ArgKey::param(&Helper, 1).surelyDiffers(ArgKey::symbol(&Other)));
  EXPECT_FALSE(diff(Body, Body));
  NodeRef FromZero =
      substituteParams(Body, &Helper, {ArgKey(), ArgKey::integer(0)});
  NodeRef FromOne =
      substituteParams(Body, &Helper, {ArgKey(), ArgKey::integer(1)});
  EXPECT_FALSE(FromZero->HasParamKeys);
  auto D = diff(FromZero, FromOne);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::Root);
  EXPECT_EQ(D->A.Position, 1u);
  EXPECT_FALSE(
      diff(FromZero,
           substituteParams(Body, &Helper, {ArgKey(), ArgKey::integer(0)})));
  // The parameters of another function, and subtrees without any, stay.
  EXPECT_EQ(substituteParams(Body, &Other, {ArgKey(), ArgKey::integer(0)})
                ->Kids[1]
                ->Tok.Root,
            ArgKey::param(&Helper, 1));
  EXPECT_EQ(FromZero->Kids[0], Body->Kids[0]);
  // A call that passes fewer arguments leaves the parameter unknown.
  EXPECT_FALSE(substituteParams(Body, &Helper, {})->Kids[1]->Tok.Root.known());
}

TEST(Sequence, ScaledParametersAreScaledArguments) {
  int Helper = 0, By = 0, Name = 0;
  // `MPI_Bcast(buf, rows * 16, ...)` with rows the helper's parameter 0.
  NodeRef Body = tok(BcastRow, ArgKey::param(&Helper, 0, 16));
  EXPECT_EQ(substituteParams(Body, &Helper, {ArgKey::integer(4)})->Tok.Root,
            ArgKey::integer(64));
  EXPECT_EQ(
      substituteParams(Body, &Helper, {ArgKey::choice(&By, 2, 1)})->Tok.Root,
      ArgKey::choice(&By, 32, 16));
  // Handed on as another helper's parameter: the factors multiply.
  EXPECT_EQ(
      substituteParams(Body, &Helper, {ArgKey::param(&By, 2, 3)})->Tok.Root,
      ArgKey::param(&By, 2, 48));
  // A name times a number has no name; an overflow is no number.
  EXPECT_FALSE(substituteParams(Body, &Helper, {ArgKey::symbol(&Name)})
                   ->Tok.Root.known());
  EXPECT_FALSE(ArgKey::integer(INT64_MAX / 2).times(16).known());
  EXPECT_EQ(ArgKey::symbol(&Name).times(1), ArgKey::symbol(&Name));
}

TEST(Sequence, UniformChoicesAreMadeAlike) {
  // if (rank == 0) { if (n % 2) allreduce; } else allreduce;
  NodeRef Odd = Node::alt(uniformKey(7), {allreduce(), Node::empty()});
  auto D = diff(Odd, allreduce());
  ASSERT_TRUE(D);
  EXPECT_EQ(sideName(D->A), "end");
  EXPECT_EQ(sideName(D->B), "MPI_Allreduce");
  // ... else { if (n % 2) allreduce; }: the same choice on both sides.
  EXPECT_FALSE(
      diff(Odd, Node::alt(uniformKey(7), {allreduce(), Node::empty()})));
  // Two different conditions are independent choices.
  EXPECT_TRUE(
      diff(Odd, Node::alt(uniformKey(8), {allreduce(), Node::empty()})));
  // Nested: the same pair of choices in a different shape still agrees.
  NodeRef Nested = Node::alt(
      uniformKey(1), {Node::alt(uniformKey(2), {barrier(), bcast()}), bcast()});
  EXPECT_FALSE(diff(
      Nested,
      Node::alt(uniformKey(1),
                {Node::alt(uniformKey(2), {barrier(), bcast()}), bcast()})));
  D = diff(Nested, Node::alt(uniformKey(1),
                             {Node::alt(uniformKey(2), {bcast(), barrier()}),
                              bcast()}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::Operation);
}

TEST(Sequence, Loops) {
  NodeRef Body = Node::seq({barrier(), allreduce()});
  // Same trip count: the bodies are compared pairwise.
  EXPECT_FALSE(
      diff(Node::loop(uniformKey(5), Body), Node::loop(uniformKey(5), Body)));
  auto D = diff(Node::loop(uniformKey(5), Body),
                Node::loop(uniformKey(5), Node::seq({allreduce(), barrier()})));
  ASSERT_TRUE(D);
  EXPECT_EQ(sideName(D->A), "MPI_Barrier");
  // A loop on one side only (or another trip count) differs when it runs.
  D = diff(Node::seq({Node::loop(uniformKey(5), Body), bcast()}), bcast());
  ASSERT_TRUE(D);
  EXPECT_EQ(sideName(D->A), "MPI_Barrier");
  EXPECT_EQ(sideName(D->B), "MPI_Bcast");
}

TEST(Sequence, FailStopPathsNeverDiffer) {
  EXPECT_FALSE(
      diff(Node::alt(uniformKey(1), {Node::failStop(), barrier()}), barrier()));
  EXPECT_FALSE(diff(Node::failStop(), barrier()));
  // Issued before the job ends: the other side still waits.
  EXPECT_TRUE(diff(Node::seq({barrier(), Node::failStop()}), Node::empty()));
}

TEST(Sequence, PointToPointTakesPartInTheOrder) {
  NodeRef Send = tok(SendRow);
  auto D = diff(Node::seq({Send, barrier()}), Node::seq({barrier(), Send}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::PointToPointWait);
  // Sends and receives alone (nothing opposite, or each other) are fine.
  EXPECT_FALSE(diff(Send, Node::empty()));
  EXPECT_FALSE(
      diff(Node::seq({Send, barrier()}), Node::seq({Send, barrier()})));
  // One more send on one side: it blocks opposite the other's barrier.
  D = diff(Node::seq({Send, barrier()}),
           Node::seq({tok(SendRow), Send, barrier()}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::PointToPointWait);
}

TEST(Sequence, PostedSendsLetThePeersBlockingCallComplete) {
  Token Posted;
  Posted.Op = &SendRow;
  Posted.Kind = TokenKind::PostedPointToPoint;
  NodeRef Isend = Node::token(Posted);
  NodeRef Recv = tok(SendRow);
  // Isend, Bcast against Recv, Bcast: the receive completes on the post.
  EXPECT_FALSE(diff(Node::seq({Isend, bcast()}), Node::seq({Recv, bcast()})));
  EXPECT_FALSE(diff(Node::seq({Recv, bcast()}), Node::seq({Isend, bcast()})));
  // Posted in a loop that may run zero times: on the runs where the peer
  // exists it posted.
  EXPECT_FALSE(diff(Node::seq({Node::loop(uniformKey(3), Isend), bcast()}),
                    Node::seq({Recv, bcast()})));
  // Posted once, received twice before the collective: the second waits.
  auto D = diff(Node::seq({Isend, bcast()}),
                Node::seq({Recv, tok(SendRow), bcast()}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::PointToPointWait);
  // A blocking send of one's own is no post.
  D = diff(Node::seq({Recv, bcast()}), Node::seq({bcast(), tok(SendRow)}));
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Why, Mismatch::PointToPointWait);
}

TEST(Sequence, BudgetIsReported) {
  // Equal trees with many independent uniform choices: proving them equal
  // walks every valuation. A small budget stops and says so.
  auto Chain = [](int N) {
    std::vector<NodeRef> Parts;
    for (int I = 0; I < N; ++I)
      Parts.push_back(Node::alt(uniformKey(100 + I), {barrier(), bcast()}));
    return Node::seq(Parts);
  };
  CompareBudget Small;
  Small.Steps = 50;
  EXPECT_FALSE(firstDifference(Chain(20), Chain(20), Small));
  EXPECT_TRUE(Small.Exhausted);
  CompareBudget Enough;
  EXPECT_FALSE(firstDifference(Chain(5), Chain(5), Enough));
  EXPECT_FALSE(Enough.Exhausted);
}

//===----------------------------------------------------------------------===//
// Trees built from parsed code.
//===----------------------------------------------------------------------===//

struct Fixture {
  explicit Fixture(std::string Code) : S(std::move(Code)) {
    if (S.ok())
      E = std::make_unique<Engine>(S.context(), Api);
  }
  std::string tree(llvm::StringRef Function) {
    const auto *FD =
        llvm::dyn_cast_or_null<clang::FunctionDecl>(S.decl(Function));
    if (!FD)
      return "<no function>";
    FactsRef F = E->facts(FD);
    if (!F)
      return "<no cfg>";
    CalleeTrees Callees;
    return print(SequenceBuilder(*E, *F, Callees).function());
  }
  apitest::Snippet S;
  api::ApiIndex Api;
  std::unique_ptr<Engine> E;
};

const char *Program = R"cpp(
#include <mpi.h>
static void sum(int *a, int *b) {
  MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
void reordered(int n) {
  int rank = 0, a = 0, b = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2) {
    MPI_Barrier(MPI_COMM_WORLD); // @barrier
    sum(&a, &b);
  } else {
    sum(&a, &b); // @sum
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
void loops(int n) {
  int rank = 0, x = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (n < 0)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < n; ++i) {
    if (rank == 0)
      MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD); // @root0
    else
      MPI_Bcast(&x, 1, MPI_INT, 1, MPI_COMM_WORLD); // @root1
  }
  MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
}
void nested(int n) {
  int rank = 0, a = 0, b = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (n % 2)
      sum(&a, &b);
  } else {
    if (n % 2)
      sum(&a, &b); // @nested
  }
}
[[noreturn]] void die(const char *why);
#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != MPI_SUCCESS)                                                 \
      die(#call);                                                              \
  } while (0)
void checked() {
  int rank = 0, a = 0, b = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    CHECK(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)); // @sum0
  if (rank == 1)
    CHECK(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
}
)cpp";

TEST(SequenceBuilder, TreesOfFunctions) {
  Fixture F(Program);
  ASSERT_TRUE(F.S.ok());
  EXPECT_EQ(F.tree("reordered"),
            "{MPI_Barrier MPI_Allreduce|MPI_Allreduce MPI_Barrier}");
  // The abort path issues nothing; the uniform loop holds the rank branch;
  // the blocking send is part of the order.
  EXPECT_EQ(F.tree("loops"), "({MPI_Bcast|MPI_Bcast})* MPI_Send");
}

TEST(SequenceBuilder, DivergenceAtTheFirstDifference) {
  Fixture F(Program);
  ASSERT_TRUE(F.S.ok());
  auto Div = F.E->divergenceAt(F.S.call("@barrier", "MPI_Barrier"));
  ASSERT_TRUE(Div);
  auto D = orderDifference(*F.E, Div->Branch);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Here.Site, F.S.call("@barrier", "MPI_Barrier"));
  EXPECT_EQ(D->Why, Mismatch::Operation);
  ASSERT_TRUE(D->Other.Tok);
  EXPECT_EQ(D->Other.Tok->name(), "MPI_Allreduce");
  // The other side's token is issued inside the helper called at @sum.
  EXPECT_EQ(D->Other.Site, F.S.call("@sum", "sum"));
  // The helper call is not where the arms first differ on its own side.
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@sum", "sum")));
  // Same uniform choice in both arms: no divergence.
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@nested", "sum")));
  // Same operation, different constant roots at the same position.
  auto RDiv = F.E->divergenceAt(F.S.call("@root0", "MPI_Bcast"));
  ASSERT_TRUE(RDiv);
  auto R = orderDifference(*F.E, RDiv->Branch);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Why, Mismatch::Root);
  EXPECT_EQ(R->Other.Site, F.S.call("@root1", "MPI_Bcast"));
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@root1", "MPI_Bcast")));
}

TEST(SequenceBuilder, BudgetHitsAreRecordedWithTheFunction) {
  // The comparison limit comes from the engine's Budget; a hit leaves the
  // branch unreported and is recorded, naming the function.
  Fixture F(Program);
  ASSERT_TRUE(F.S.ok());
  const clang::CallExpr *Barrier = F.S.call("@barrier", "MPI_Barrier");
  ASSERT_TRUE(F.E->divergenceAt(Barrier));
  EXPECT_TRUE(F.E->limits().Hits.empty());
  F.E->limits().SequenceSteps = 0;
  EXPECT_FALSE(F.E->divergenceAt(Barrier));
  ASSERT_FALSE(F.E->limits().Hits.empty());
  EXPECT_EQ(F.E->limits().Hits.back(),
            "collective-sequence comparison steps in reordered");
}

TEST(SequenceBuilder, StatusChecksDoNotMoveTheJoin) {
  // The arms of `if (rank == 0) CHECK(...)` meet right after it: the
  // check's `die()` path does not push the join to the function's exit, so
  // the first branch is compared with its own (empty) else arm, not with
  // the allreduce of the next branch.
  Fixture F(Program);
  ASSERT_TRUE(F.S.ok());
  const clang::CallExpr *Sum0 = F.S.call("@sum0", "MPI_Allreduce");
  auto Div = F.E->divergenceAt(Sum0);
  ASSERT_TRUE(Div);
  auto D = orderDifference(*F.E, Div->Branch);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Here.Site, Sum0);
  EXPECT_EQ(D->Why, Mismatch::MissingOnOneSide);
  EXPECT_FALSE(D->Other.Tok);
}

} // namespace

//===----------------------------------------------------------------------===//
// Rank classes: what each class of ranks issues through the whole function.
//===----------------------------------------------------------------------===//

TEST(Sequence, KeepsUniformChoicesThatEndTheJobWhenTheirBranchIsKnown) {
  // `if (size != 4) MPI_Abort(...)`: a rank class that knows the world size
  // decides it, so the choice stays (and prints as nothing).
  ChoiceSource Src;
  Src.Term = reinterpret_cast<const clang::Stmt *>(0x20);
  NodeRef Check =
      Node::alt(uniformKey(7), {Node::failStop(), Node::empty()}, Src);
  EXPECT_EQ(Check->Kind, NodeKind::Alt);
  EXPECT_EQ(print(Node::seq({Check, barrier()})), "MPI_Barrier");
  EXPECT_FALSE(issuesAnything(Check));
  // A varying choice of that shape still collapses (it cannot be decided
  // alike on both sides).
  EXPECT_EQ(Node::alt({7, false}, {Node::failStop(), Node::empty()}, Src)->Kind,
            NodeKind::Empty);
}

TEST(Sequence, TraceSeparatesMatchedCallsFromThoseAfterADifference) {
  Fixture F(R"cpp(
#include <mpi.h>
void f() {
  MPI_Barrier(MPI_COMM_WORLD); // @b1
  MPI_Barrier(MPI_COMM_WORLD); // @b2
  MPI_Allreduce(0, 0, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // @ar
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  auto T = [&](const char *Marker, const char *Name) {
    Token Tok = *tokenAt(*F.E, F.S.call(Marker, Name));
    return Node::token(Tok);
  };
  NodeRef B1 = T("@b1", "MPI_Barrier"), B2 = T("@b2", "MPI_Barrier"),
          AR = T("@ar", "MPI_Allreduce");
  CompareBudget Budget;
  CompareTrace Trace;
  // B1 AR against B2 B1: B1 and B2 match at position 0, AR differs from B1.
  auto D =
      firstDifference(Node::seq({B1, AR}), Node::seq({B2, B1}), Budget, &Trace);
  ASSERT_TRUE(D);
  EXPECT_TRUE(Trace.Matched.count(F.S.call("@b1", "MPI_Barrier")));
  EXPECT_TRUE(Trace.Matched.count(F.S.call("@b2", "MPI_Barrier")));
  EXPECT_TRUE(Trace.AfterDifference.count(F.S.call("@ar", "MPI_Allreduce")));
  EXPECT_TRUE(Trace.AfterDifference.count(F.S.call("@b1", "MPI_Barrier")));
  EXPECT_FALSE(Trace.AfterDifference.count(F.S.call("@b2", "MPI_Barrier")));
}

const char *RankClassProgram = R"cpp(
#include <mpi.h>
void prepare();
void goes_first() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD); // @others
  prepare();
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // @root
}
void cover_and_one_more() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool is_root = rank == 0;
  if (is_root)
    MPI_Barrier(MPI_COMM_WORLD); // @c0
  if (rank == 1)
    MPI_Barrier(MPI_COMM_WORLD); // @c1
  if (rank > 1)
    MPI_Barrier(MPI_COMM_WORLD); // @c2
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // @extra
}
void fixed_size() {
  int rank = 0, size = 0, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); // @f0
  else if (rank == 1)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  else if (rank == 2)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); // @f2
}
void unchecked_size() {
  int rank = 0, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); // @u1
}
void local_flag(double loss) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0 && loss > 1.0) // not decided by the rank alone
    MPI_Barrier(MPI_COMM_WORLD); // @local
}
)cpp";

TEST(RankClasses, SequencesThroughTheWholeFunctionDecide) {
  Fixture F(RankClassProgram);
  ASSERT_TRUE(F.S.ok());
  // Rank 0 goes first: every rank issues one barrier.
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@others", "MPI_Barrier")));
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@root", "MPI_Barrier")));
  // Three tests covering every rank; the fourth is one too many on rank 0,
  // and the witness names two ranks of one world.
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@c0", "MPI_Barrier")));
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@c1", "MPI_Barrier")));
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@c2", "MPI_Barrier")));
  auto Extra = F.E->divergenceAt(F.S.call("@extra", "MPI_Barrier"));
  ASSERT_TRUE(Extra);
  ASSERT_TRUE(Extra->Ranks);
  EXPECT_EQ(Extra->Ranks->Here, 0);
  EXPECT_NE(Extra->Ranks->Other, 0);
  EXPECT_EQ(Extra->Ranks->OtherSite, nullptr);
  // The size check leaves only 3-rank worlds: the chain covers them all.
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@f0", "MPI_Bcast")));
  EXPECT_FALSE(F.E->divergenceAt(F.S.call("@f2", "MPI_Bcast")));
  // Without it, rank 2 of a 3-rank world takes no arm.
  EXPECT_TRUE(F.E->divergenceAt(F.S.call("@u1", "MPI_Bcast")));
  // A condition the classes cannot decide keeps today's answer.
  EXPECT_TRUE(F.E->divergenceAt(F.S.call("@local", "MPI_Barrier")));
}

TEST(RankClasses, ABudgetHitDecidesNothing) {
  Fixture F(RankClassProgram);
  ASSERT_TRUE(F.S.ok());
  const auto *FD =
      llvm::dyn_cast_or_null<clang::FunctionDecl>(F.S.decl("goes_first"));
  ASSERT_TRUE(FD);
  F.E->limits().SequenceSteps = 3;
  const ClassComparison &C = compareRankClasses(*F.E, FD);
  EXPECT_FALSE(C.Finished);
  EXPECT_FALSE(ruledOutByRankClasses(
      *F.E, FD, F.E->parentStmt(F.S.call("@others", "MPI_Barrier")),
      F.S.call("@others", "MPI_Barrier")));
}
