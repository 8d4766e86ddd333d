//===- SolverTest.cpp - The worklist solver on hand-made CFGs -------------===//
#include "engine/solver/Solver.h"
#include "ApiTestSupport.h"
#include "engine/cfg/CFGFacts.h"
#include "engine/cfg/FailStop.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace clang;
using namespace distlint;
using apitest::Snippet;

namespace {

/// Longest number of calls on any path to a point, saturating at Top:
/// infinite height in loops without widening.
struct CallCount {
  using Element = int;
  static constexpr solver::Direction Dir = solver::Direction::Forward;
  static constexpr int Top = 1 << 20;
  int Widened = 0;
  int bottom() const { return 0; }
  int boundary() const { return 0; }
  int merge(const CFGBlock *, llvm::ArrayRef<solver::Neighbour<int>> Ns) const {
    int M = 0;
    for (const auto &N : Ns)
      M = std::max(M, *N.Out);
    return M;
  }
  void transfer(const CFGBlock *B, int &S) {
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (isa<CallExpr>(CS->getStmt()) && S < Top)
          ++S;
  }
  bool equal(int A, int B) const { return A == B; }
  void widen(const CFGBlock *, int, int &New) {
    ++Widened;
    New = Top;
  }
};

struct Parsed {
  explicit Parsed(const char *Code)
      : S(Code, {}, /*UseTestdataInclude=*/false) {
    if (!S.ok())
      return;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(S.decl("f"));
    if (FD)
      Facts = FunctionFacts::build(FD, S.context());
  }
  Snippet S;
  std::unique_ptr<FunctionFacts> Facts;
};

const char *Straight = R"cpp(
void g();
void f(bool c) {
  g();
  if (c) { g(); g(); } else { g(); }
  g();
}
)cpp";

const char *Loop = R"cpp(
void g();
void f(int n) {
  for (int i = 0; i < n; ++i)
    g();
  g();
}
)cpp";

TEST(Solver, ReachesTheFixpointOnAcyclicCode) {
  Parsed P(Straight);
  ASSERT_TRUE(P.Facts);
  CallCount A;
  auto Sol = solver::solve(P.Facts->cfg(), A);
  EXPECT_FALSE(Sol.BudgetHit);
  // Longest path: g(); g(); g(); g();
  EXPECT_EQ(Sol.in(&P.Facts->cfg().getExit()), 4);
  EXPECT_EQ(A.Widened, 0);
  // Every reachable block visited once: RPO order, nothing changes twice.
  EXPECT_EQ(Sol.Visits, P.Facts->reversePostOrder().size());
}

TEST(Solver, WideningMakesAGrowingLoopStop) {
  Parsed P(Loop);
  ASSERT_TRUE(P.Facts);
  CallCount A;
  auto Sol = solver::solve(P.Facts->cfg(), A,
                           {/*MaxVisitsPerBlock=*/1000,
                            /*WidenAfter=*/3});
  EXPECT_FALSE(Sol.BudgetHit);
  EXPECT_GT(A.Widened, 0);
  EXPECT_GE(Sol.in(&P.Facts->cfg().getExit()), CallCount::Top);
}

TEST(Solver, BudgetHitIsReported) {
  Parsed P(Loop);
  ASSERT_TRUE(P.Facts);
  CallCount A;
  // No widening in reach: the loop keeps growing until the budget ends it.
  auto Sol = solver::solve(P.Facts->cfg(), A,
                           {/*MaxVisitsPerBlock=*/4,
                            /*WidenAfter=*/1000000});
  EXPECT_TRUE(Sol.BudgetHit);
  EXPECT_EQ(A.Widened, 0);
  EXPECT_LT(Sol.in(&P.Facts->cfg().getExit()), CallCount::Top);
}

TEST(Solver, BackwardDoomedBlocksSkipEndlessLoops) {
  Parsed P(R"cpp(
void die(int) __attribute__((noreturn));
void work();
void f(int err, bool serve) {
  if (err) { work(); die(1); }
  if (serve)
    while (true) work();
  else
    die(2);
  work();
}
)cpp");
  ASSERT_TRUE(P.Facts);
  auto Doomed =
      doomedBlocks(P.Facts->cfg(), [](const CallExpr *) { return false; });
  const CFG &G = P.Facts->cfg();
  EXPECT_FALSE(Doomed.count(&G.getEntry()));
  EXPECT_FALSE(Doomed.count(&G.getExit()));
  unsigned Dies = 0, Ifs = 0;
  for (const CFGBlock *B : G) {
    if (B->hasNoReturnElement()) {
      ++Dies;
      EXPECT_TRUE(Doomed.count(B));
    }
    // `if (serve)`: one arm dies, the other serves forever. A greatest
    // fixpoint would call the loop doomed, and this branch with it.
    if (const Stmt *T = B->getTerminatorStmt(); T && isa<IfStmt>(T)) {
      ++Ifs;
      EXPECT_FALSE(Doomed.count(B));
    }
  }
  EXPECT_EQ(Dies, 2u);
  EXPECT_EQ(Ifs, 2u);
}

TEST(Solver, ANormalEndIsAPathToTheExitNotADoomedBlock) {
  Parsed P(R"cpp(
void exit(int) __attribute__((noreturn));
void work();
void f(int done) {
  if (done) exit(0);
  work();
  exit(1);
}
)cpp");
  ASSERT_TRUE(P.Facts);
  auto StatusIs = [](const CallExpr *C, int64_t V) {
    if (C->getNumArgs() != 1)
      return false;
    const auto *L = dyn_cast<IntegerLiteral>(C->getArg(0)->IgnoreImpCasts());
    return L && L->getValue() == V;
  };
  auto Doomed = doomedBlocks(
      P.Facts->cfg(), [&](const CallExpr *C) { return StatusIs(C, 1); },
      [&](const CallExpr *C) { return StatusIs(C, 0); });
  unsigned Exits = 0;
  for (const CFGBlock *B : P.Facts->cfg())
    if (B->hasNoReturnElement()) {
      ++Exits;
      const CallExpr *Exit = nullptr;
      for (const CFGElement &El : *B)
        if (auto CS = El.getAs<CFGStmt>())
          if (const auto *C = dyn_cast<CallExpr>(CS->getStmt()))
            Exit = C;
      ASSERT_TRUE(Exit);
      // exit(1) ends the job; exit(0) ends the program normally.
      EXPECT_EQ(Doomed.count(B) > 0, StatusIs(Exit, 1));
    }
  EXPECT_EQ(Exits, 2u);
  EXPECT_FALSE(Doomed.count(&P.Facts->cfg().getEntry()));
}

TEST(Solver, BackwardOrderCoversBlocksUnreachableFromTheEntry) {
  Parsed P(R"cpp(
void g();
void f() {
  return;
  g();
}
)cpp");
  ASSERT_TRUE(P.Facts);
  const CFG &G = P.Facts->cfg();
  EXPECT_EQ(solver::solveOrder(G, solver::Direction::Backward).size(),
            G.size());
  EXPECT_LT(solver::solveOrder(G, solver::Direction::Forward).size(), G.size());
  EXPECT_TRUE(P.Facts->hasUnreachableCode()); // g() after the return.
}

} // namespace

namespace {
const CFGBlock *blockCalling(FunctionFacts &F, llvm::StringRef Callee) {
  for (const CFGBlock *B : F.reversePostOrder())
    for (const CFGElement &El : *B)
      if (auto CS = El.getAs<CFGStmt>())
        if (const auto *Call = dyn_cast<CallExpr>(CS->getStmt()))
          if (const FunctionDecl *D = Call->getDirectCallee();
              D && D->getName() == Callee)
            return B;
  return nullptr;
}
} // namespace

TEST(CFGFacts, ABlockWhoseOwnTestRepeatsItDependsOnItself) {
  // The call and the exit test share a block: whether g() runs again is
  // decided by that block's own branch.
  Parsed P(R"cpp(
void g();
void h();
void f(int r) {
  while (true) {
    g();
    if (r > 0)
      break;
  }
  h();
}
)cpp");
  ASSERT_TRUE(P.Facts);
  const CFGBlock *G = blockCalling(*P.Facts, "g");
  const CFGBlock *H = blockCalling(*P.Facts, "h");
  ASSERT_TRUE(G && H);
  auto Deps = P.Facts->allControlDependencies(G);
  EXPECT_NE(std::find(Deps.begin(), Deps.end(), G), Deps.end());
  EXPECT_TRUE(P.Facts->allControlDependencies(H).empty());
  EXPECT_FALSE(P.Facts->hasUnreachableCode());
}

TEST(CFGFacts, StraightCodeHasNoUnreachableCode) {
  Parsed Q(Straight);
  ASSERT_TRUE(Q.Facts);
  EXPECT_FALSE(Q.Facts->hasUnreachableCode());
}
