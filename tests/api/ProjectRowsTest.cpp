//===- ProjectRowsTest.cpp - Rows from other TUs' function summaries ------===//
//
// ApiIndex turns api::ProjectFacts into Family::Project rows matched by the
// function's USR, only for declarations without a body in this TU.
//
//===----------------------------------------------------------------------===//
#include "ApiTestSupport.h"
#include "api/ProjectFacts.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace distlint;
using namespace distlint::api;
using distlint::apitest::Snippet;

namespace {

const char *Code = R"cpp(
namespace mt {
void allReduce(double *data, int n);
int rank();
struct Reducer { virtual void sum(double *d, int n) = 0; };
void local() {}
}
namespace other { void allReduce(double *data, int n); }
void run(mt::Reducer *r, double *d) {
  mt::allReduce(d, 4); // @wrapper
  other::allReduce(d, 4); // @samename
  int me = mt::rank(); // @rank
  r->sum(d, 4); // @virtual
  mt::local(); // @defined
  (void)me;
}
)cpp";

ProjectFact fact(Role R, const char *What, int Recv = -1) {
  ProjectFact F;
  F.TheRole = R;
  F.What = What;
  F.File = "/src/comm.cpp";
  F.Line = 42;
  F.Recv = Recv;
  return F;
}

class ProjectRows : public ::testing::Test {
protected:
  void SetUp() override {
    S = std::make_unique<Snippet>(Code, std::vector<std::string>{}, false);
    ASSERT_TRUE(S->ok());
    auto Add = [&](const char *Marker, const char *Name, ProjectFact F) {
      const FunctionDecl *FD = S->callee(Marker, Name);
      ASSERT_NE(FD, nullptr) << Marker;
      auto &E = Facts.ByUsr[usrOf(FD)];
      E.Name = qualifiedName(FD);
      E.Facts.push_back(F);
    };
    Add("@wrapper", "allReduce", fact(Role::Collective, "MPI_Allreduce", 0));
    Add("@rank", "rank", fact(Role::RankSource, "rank"));
    Add("@virtual", "sum", fact(Role::Collective, "MPI_Reduce"));
    Add("@defined", "local", fact(Role::Collective, "MPI_Barrier"));
  }
  std::unique_ptr<Snippet> S;
  ProjectFacts Facts;
};

TEST_F(ProjectRows, MatchedByUsrWithTheirArguments) {
  ApiIndex Index({}, &Facts);
  const ApiEntry *Row =
      Index.find(S->callee("@wrapper", "allReduce"), Role::Collective);
  ASSERT_NE(Row, nullptr);
  EXPECT_EQ(Row->Fam, Family::Project);
  EXPECT_EQ(Row->Args.Recv, 0);
  const ProjectFact *F = Index.projectFact(Row);
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(F->What, "MPI_Allreduce");
  EXPECT_EQ(F->Line, 42u);
  EXPECT_NE(Index.find(S->callee("@rank", "rank"), Role::RankSource), nullptr);
  EXPECT_NE(Index.find(S->callee("@virtual", "sum"), Role::Collective),
            nullptr);
}

TEST_F(ProjectRows, NeverByNameAndNeverOverABodyHere) {
  ApiIndex Index({}, &Facts);
  // Same name, another function: a USR is not a name.
  EXPECT_TRUE(Index.lookup(S->callee("@samename", "allReduce")).empty());
  // A body in this TU is analyzed, whatever another TU said.
  EXPECT_TRUE(Index.lookup(S->callee("@defined", "local")).empty());
}

TEST_F(ProjectRows, WithoutFactsCallsStayUnknown) {
  ApiIndex Index;
  EXPECT_TRUE(Index.lookup(S->callee("@wrapper", "allReduce")).empty());
  EXPECT_EQ(Index.projectFact(nullptr), nullptr);
}

} // namespace
