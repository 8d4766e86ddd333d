//===- ApiIndexTest.cpp - Matching calls against the API tables -----------===//
//
// Snippets are parsed against testdata/include; every snippet must compile
// without errors (which also checks the declarations). Each expectation names
// the call by a `// @marker` on its line.
//
//===----------------------------------------------------------------------===//
#include "ApiTestSupport.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace distlint;
using namespace distlint::api;
using distlint::apitest::Snippet;
using ::testing::Contains;
using ::testing::Not;

namespace {

const char *C10dCode = R"cpp(
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <memory>

#if TORCH_VERSION_MAJOR >= 2
using PGBase = c10d::Backend;
#else
#include <torch/csrc/distributed/c10d/Ops.hpp>
using PGBase = c10d::ProcessGroup;
#endif

// A user backend overriding the collective interface.
struct MyPG : PGBase {
  MyPG() : PGBase(0, 1) {}
  c10::intrusive_ptr<c10d::Work>
  allreduce(std::vector<at::Tensor> &t,
            const c10d::AllreduceOptions &o) override { return {}; }
};
// A user class with a same-named method but no c10d base.
struct NotAPG {
  void allreduce(std::vector<at::Tensor> &t) {}
  int getRank() const { return 0; }
};
namespace mine { void allreduce(std::vector<at::Tensor> &t) {} }

void run(const c10::intrusive_ptr<c10d::ProcessGroupGloo> &gloo,
         std::shared_ptr<c10d::ProcessGroupGloo> shared, PGBase &ref,
         PGBase *ptr, MyPG &custom, NotAPG &other,
         std::vector<at::Tensor> &ts) {
  gloo->allreduce(ts); // @intrusive
  shared->broadcast(ts); // @shared
  ref.barrier(); // @ref
  ptr->reduce(ts); // @ptr
  custom.allreduce(ts, c10d::AllreduceOptions()); // @override
  ref.allreduce(ts); // @virtual
  other.allreduce(ts); // @notpg
  mine::allreduce(ts); // @freefn
  int r = gloo->getRank(); // @rank
  int n = ref.getSize(); // @size
  int o = other.getRank(); // @otherrank
  gloo->send(ts, 1, 0); // @send
  gloo->recv(ts, 0, 0); // @recv
  gloo->allgather(*new std::vector<std::vector<at::Tensor>>, ts); // @allgather
  gloo->allreduce(ts)->wait(); // @wait
  (void)r; (void)n; (void)o;
}

void stores() {
  auto fs = c10::make_intrusive<c10d::FileStore>("/tmp/f", 2);
  fs->setTimeout(std::chrono::seconds(5)); // @settimeout
  c10d::TCPStoreOptions topts;
  topts.timeout = c10d::Store::kNoTimeout; // @tcpopts
  c10d::TCPStore a("localhost", topts); // @tcpnew
#if TORCH_VERSION_MAJOR < 2
  c10d::TCPStore b("localhost", 29500, 2, true, std::chrono::seconds(30)); // @tcpold
#endif
  auto gopts = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(9)); // @glooopts
  gopts->timeout = kNoTimeout; // @gloofield
  auto nopts = c10d::ProcessGroupNCCL::Options::create();
  nopts->timeout = std::chrono::minutes(3); // @ncclfield
  c10d::ProcessGroupGloo pg(fs, 0, 2, gopts); // @glooctor
  c10d::ProcessGroupNCCL npg(fs, 0, 2, nopts); // @ncclctor
}

#if TORCH_VERSION_MAJOR >= 2
void wrapper(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
             const c10::intrusive_ptr<c10d::Store> &store,
             std::vector<at::Tensor> &ts) {
  pg->allreduce(ts); // @pgwrapper
  pg->getBackend(c10::DeviceType::CPU)->allreduce(ts); // @getbackend
  auto g = c10d::ProcessGroupGloo::createProcessGroupGloo(store, 0, 2, std::chrono::seconds(5)); // @create
}
#else
void wrapper(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
             std::vector<at::Tensor> &ts) {
  c10d::ops::allreduce(pg, ts); // @ops113
  c10d::ops::send(pg, ts, 1, 0); // @opssend
}
#endif
)cpp";

class C10dMatching : public ::testing::TestWithParam<bool> {
protected:
  static void SetUpTestSuite() {
    V113 = new Snippet(C10dCode);
    V2 = new Snippet(C10dCode, {"-DDISTLINT_TORCH_2X"});
  }
  static void TearDownTestSuite() {
    delete V113;
    delete V2;
  }
  const Snippet &S() const { return GetParam() ? *V2 : *V113; }
  ApiIndex Index;
  static Snippet *V113, *V2;
};
Snippet *C10dMatching::V113, *C10dMatching::V2;

TEST_P(C10dMatching, SnippetCompiles) { ASSERT_TRUE(S().ok()); }

TEST_P(C10dMatching, ReceiversOfEveryKindMatch) {
  ASSERT_TRUE(S().ok());
  for (auto [Marker, Method] :
       {std::pair{"@intrusive", "allreduce"}, {"@shared", "broadcast"},
        {"@ref", "barrier"}, {"@ptr", "reduce"}, {"@override", "allreduce"},
        {"@virtual", "allreduce"}, {"@allgather", "allgather"}}) {
    const FunctionDecl *FD = S().callee(Marker, Method);
    ASSERT_NE(FD, nullptr) << Marker;
    EXPECT_TRUE(Index.has(FD, Role::Collective)) << Marker;
  }
}

TEST_P(C10dMatching, CollectiveRowsCarryArgumentPositions) {
  const ApiEntry *E =
      Index.find(S().callee("@intrusive", "allreduce"), Role::Collective);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Args.Recv, 0);
  EXPECT_EQ(E->Args.Options, 1);
  EXPECT_EQ(E->Facts.AgreeingOptions, ReduceOp);
  const ApiEntry *B =
      Index.find(S().callee("@shared", "broadcast"), Role::Collective);
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Facts.AgreeingOptions, RootRank | RootTensor);
  const ApiEntry *G =
      Index.find(S().callee("@allgather", "allgather"), Role::Collective);
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(G->Args.Recv, 0);
  EXPECT_EQ(G->Args.Send, 1);
  EXPECT_EQ(G->Args.Options, 2);
}

TEST_P(C10dMatching, UnrelatedSameNamesDoNotMatch) {
  EXPECT_TRUE(Index.lookup(S().callee("@notpg", "allreduce")).empty());
  EXPECT_TRUE(Index.lookup(S().callee("@freefn", "allreduce")).empty());
  EXPECT_TRUE(Index.lookup(S().callee("@otherrank", "getRank")).empty());
}

TEST_P(C10dMatching, RankSizeAndPointToPoint) {
  EXPECT_TRUE(Index.has(S().callee("@rank", "getRank"), Role::RankSource));
  EXPECT_TRUE(
      Index.has(S().callee("@size", "getSize"), Role::WorldSizeSource));
  const ApiEntry *Send =
      Index.find(S().callee("@send", "send"), Role::PointToPoint);
  ASSERT_NE(Send, nullptr);
  EXPECT_EQ(Send->Args.Peer, 1);
  EXPECT_FALSE(Index.has(S().callee("@send", "send"), Role::Collective));
  const ApiEntry *Recv =
      Index.find(S().callee("@recv", "recv"), Role::PointToPoint);
  ASSERT_NE(Recv, nullptr);
  EXPECT_EQ(Recv->Args.RecvVaries, 0);
  EXPECT_TRUE(Index.has(S().callee("@wait", "wait"), Role::Wait));
}

TEST_P(C10dMatching, OpsFreeFunctions) {
  if (GetParam())
    GTEST_SKIP() << "c10d::ops is LibTorch 1.13 only";
  const ApiEntry *E =
      Index.find(S().callee("@ops113", "allreduce"), Role::Collective);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Args.Comm, 0);
  EXPECT_EQ(E->Args.Recv, 1);
  EXPECT_EQ(E->Args.Options, 2);
}

TEST_P(C10dMatching, StoresAndTimeouts) {
  ASSERT_TRUE(S().ok());
  EXPECT_TRUE(Index.has(S().callee("@settimeout", "setTimeout"),
                        Role::TimeoutKnob));
  // TCPStore: the options overload and the deprecated positional one.
  const CXXConstructorDecl *New = S().constructor("@tcpnew", "TCPStore");
  ASSERT_NE(New, nullptr);
  const ApiEntry *NewRow = Index.find(New, Role::TimeoutKnob);
  ASSERT_NE(NewRow, nullptr);
  EXPECT_EQ(NewRow->Args.Options, 1);
  EXPECT_EQ(NewRow->Args.Timeout, -1);
  if (!GetParam()) { // the positional overload is gone in 2.x
    const CXXConstructorDecl *Old = S().constructor("@tcpold", "TCPStore");
    ASSERT_NE(Old, nullptr);
    const ApiEntry *OldRow = Index.find(Old, Role::TimeoutKnob);
    ASSERT_NE(OldRow, nullptr);
    EXPECT_EQ(OldRow->Args.Timeout, 4);
  }
  EXPECT_TRUE(Index.findType(New->getParent(), Role::StoreType));

  const MemberExpr *TcpField = S().member("@tcpopts", "timeout");
  ASSERT_NE(TcpField, nullptr);
  EXPECT_TRUE(Index.findMember(TcpField->getMemberDecl(), Role::TimeoutKnob));
  const DeclRefExpr *NoTimeout = S().declRef("@tcpopts", "kNoTimeout");
  ASSERT_NE(NoTimeout, nullptr);
  const ApiEntry *None =
      Index.findMember(NoTimeout->getDecl(), Role::TimeoutConstant);
  ASSERT_NE(None, nullptr);
  EXPECT_EQ(None->Facts.Timeout, TimeoutValue::Infinite);
  const DeclRefExpr *GlobalNone = S().declRef("@gloofield", "kNoTimeout");
  ASSERT_NE(GlobalNone, nullptr);
  EXPECT_TRUE(Index.findMember(GlobalNone->getDecl(), Role::TimeoutConstant));

  EXPECT_EQ(Index.find(S().callee("@glooopts", "create"), Role::TimeoutKnob)
                ->Args.Timeout,
            0);
  // opts->timeout: the field is declared in the options base class.
  for (const char *Marker : {"@gloofield", "@ncclfield"}) {
    const MemberExpr *ME = S().member(Marker, "timeout");
    ASSERT_NE(ME, nullptr) << Marker;
    EXPECT_TRUE(Index.findMember(ME->getMemberDecl(), Role::TimeoutKnob))
        << Marker;
    const CXXRecordDecl *Through =
        ME->getBase()->getType()->getPointeeCXXRecordDecl();
    if (!Through)
      Through = ME->getBase()->getType()->getAsCXXRecordDecl();
    EXPECT_TRUE(Index.findMember(ME->getMemberDecl(), Role::TimeoutKnob,
                                 Through))
        << Marker;
  }
  for (auto [Marker, Class] : {std::pair{"@glooctor", "ProcessGroupGloo"},
                               {"@ncclctor", "ProcessGroupNCCL"}}) {
    const CXXConstructorDecl *Ctor = S().constructor(Marker, Class);
    ASSERT_NE(Ctor, nullptr) << Marker;
    const ApiEntry *Init = Index.find(Ctor, Role::CommInit);
    ASSERT_NE(Init, nullptr) << Marker;
    EXPECT_EQ(Init->Args.Options, 3) << Marker;
    EXPECT_TRUE(Index.findType(Ctor->getParent(), Role::ProcessGroupType));
  }
}

TEST_P(C10dMatching, TwoXWrapperBackendAndFactory) {
  if (!GetParam())
    GTEST_SKIP() << "2.x only";
  EXPECT_TRUE(
      Index.has(S().callee("@pgwrapper", "allreduce"), Role::Collective));
  const FunctionDecl *ViaBackend = S().callee("@getbackend", "allreduce");
  ASSERT_NE(ViaBackend, nullptr);
  EXPECT_EQ(api::qualifiedName(ViaBackend), "c10d::Backend::allreduce");
  EXPECT_TRUE(Index.has(ViaBackend, Role::Collective));
  const FunctionDecl *Create = S().callee("@create", "createProcessGroupGloo");
  EXPECT_TRUE(Index.has(Create, Role::CommInit));
  EXPECT_EQ(Index.find(Create, Role::TimeoutKnob)->Args.Timeout, 3);
  // Gloo derives from Backend in 2.x, from ProcessGroup in 1.13.
  const auto *Gloo = dyn_cast_or_null<CXXRecordDecl>(
      S().allDecls("c10d::ProcessGroupGloo").empty()
          ? nullptr
          : S().allDecls("c10d::ProcessGroupGloo").front());
  ASSERT_NE(Gloo, nullptr);
  ASSERT_TRUE(Gloo->hasDefinition());
  EXPECT_EQ(api::qualifiedName(
                Gloo->getDefinition()->bases_begin()->getType()->getAsCXXRecordDecl()),
            "c10d::Backend");
}

TEST_P(C10dMatching, OneThirteenPointToPointOps) {
  if (GetParam())
    GTEST_SKIP() << "1.13 snippet only";
  const ApiEntry *E =
      Index.find(S().callee("@opssend", "send"), Role::PointToPoint);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Args.Comm, 0);
  EXPECT_EQ(E->Args.Peer, 2);
}

INSTANTIATE_TEST_SUITE_P(LibTorch, C10dMatching, ::testing::Bool(),
                         [](const auto &Info) {
                           return Info.param ? "v2x" : "v113";
                         });

//===--- MPI, NCCL, CUDA, C/C++ library ----------------------------------===//
const char *CCode = R"cpp(
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>
#include <cassert>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

int helper();
namespace user { int get_rank(); }

void mpi(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank); // @commrank
  MPI_Comm_size(MPI_COMM_WORLD, &size); // @commsize
  double x = 1, y;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // @allreduce
  MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); // @bcast
  MPI_Request req;
  MPI_Iallreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req); // @iallreduce
  MPI_Wait(&req, MPI_STATUS_IGNORE); // @wait
  MPI_Send(&x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); // @send
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub); // @split
  double t = MPI_Wtime(); // @wtime
  if (t < 0) MPI_Abort(MPI_COMM_WORLD, 1); // @abort
  MPI_Finalize();
}

void nccl(ncclUniqueId id, int rank, float *buf, cudaStream_t s) {
  ncclComm_t comm;
  ncclCommInitRank(&comm, 2, id, rank); // @initrank
  int me, n;
  ncclCommUserRank(comm, &me); // @userrank
  ncclCommCount(comm, &n); // @count
  ncclAllReduce(buf, buf, 4, ncclFloat, ncclSum, comm, s); // @ncclallreduce
  ncclGroupStart(); // @groupstart
  ncclSend(buf, 4, ncclFloat, 1, comm, s); // @ncclsend
  ncclGroupEnd();
  ncclResult_t err;
  ncclCommGetAsyncError(comm, &err); // @asyncerr
  cudaStreamSynchronize(s); // @streamsync
  cudaMemcpy(buf, buf, 4, cudaMemcpyDeviceToHost); // @memcpy
  cudaMalloc(&buf, 16); // @typedmalloc
  cudaDeviceSynchronize(); // @devsync
}

void stdlib() {
  const char *r = std::getenv("RANK"); // @getenv
  int rank = std::stoi(r); // @stoi
  int rank2 = atoi(getenv("OMPI_COMM_WORLD_RANK")); // @atoi
  auto now = std::chrono::steady_clock::now(); // @steady
  std::random_device rd;
  unsigned v = rd(); // @rdev
  bool e = std::filesystem::exists("/tmp/x"); // @fsexists
  std::ifstream in("/tmp/y");
  bool open = in.is_open(); // @isopen
  setenv("NCCL_ASYNC_ERROR_HANDLING", "0", 1); // @setenv
  if (!e) std::exit(1); // @exit
  if (v == 3) std::terminate(); // @terminate
  assert(rank >= 0); // @assert
  int u = user::get_rank(); // @usersource
  (void)now; (void)open; (void)rank2; (void)u;
}
)cpp";

class CMatching : public ::testing::Test {
protected:
  static void SetUpTestSuite() { Code = new Snippet(CCode); }
  static void TearDownTestSuite() { delete Code; }
  const Snippet &S() const { return *Code; }
  ApiIndex Index;
  static Snippet *Code;
};
Snippet *CMatching::Code;

TEST_F(CMatching, SnippetCompiles) { ASSERT_TRUE(S().ok()); }

TEST_F(CMatching, MpiCollectivesAndSources) {
  const ApiEntry *AR =
      Index.find(S().callee("@allreduce", "MPI_Allreduce"), Role::Collective);
  ASSERT_NE(AR, nullptr);
  EXPECT_EQ(AR->Fam, Family::Mpi);
  EXPECT_EQ(AR->Args.Send, 0);
  EXPECT_EQ(AR->Args.Recv, 1);
  EXPECT_EQ(AR->Args.Count, 2);
  EXPECT_EQ(AR->Args.DType, 3);
  EXPECT_EQ(AR->Args.Op, 4);
  EXPECT_EQ(AR->Args.Comm, 5);
  const ApiEntry *Bc =
      Index.find(S().callee("@bcast", "MPI_Bcast"), Role::Collective);
  ASSERT_NE(Bc, nullptr);
  EXPECT_EQ(Bc->Args.Root, 3);
  EXPECT_EQ(Bc->Args.Comm, 4);
  EXPECT_EQ(Index.find(S().callee("@iallreduce", "MPI_Iallreduce"),
                       Role::Collective)
                ->Args.Request,
            6);
  EXPECT_TRUE(Index.has(S().callee("@wait", "MPI_Wait"), Role::Wait));
  const ApiEntry *Rank =
      Index.find(S().callee("@commrank", "MPI_Comm_rank"), Role::RankSource);
  ASSERT_NE(Rank, nullptr);
  EXPECT_EQ(Rank->Args.Out, 1);
  EXPECT_EQ(Index.find(S().callee("@commsize", "MPI_Comm_size"),
                       Role::WorldSizeSource)
                ->Args.Out,
            1);
  const FunctionDecl *Split = S().callee("@split", "MPI_Comm_split");
  EXPECT_TRUE(Index.has(Split, Role::Collective));
  EXPECT_EQ(Index.find(Split, Role::CommSplit)->Args.Color, 1);
  EXPECT_EQ(Index.find(Split, Role::CommSplit)->Args.Out, 3);
  const FunctionDecl *Send = S().callee("@send", "MPI_Send");
  EXPECT_TRUE(Index.has(Send, Role::PointToPoint));
  EXPECT_FALSE(Index.has(Send, Role::Collective));
  EXPECT_TRUE(
      Index.has(S().callee("@wtime", "MPI_Wtime"), Role::LocalDataSource));
  EXPECT_TRUE(Index.has(S().callee("@abort", "MPI_Abort"), Role::FailStop));
}

TEST_F(CMatching, NcclAndCuda) {
  const FunctionDecl *Init = S().callee("@initrank", "ncclCommInitRank");
  const ApiEntry *InitRow = Index.find(Init, Role::CommInit);
  ASSERT_NE(InitRow, nullptr);
  EXPECT_EQ(InitRow->Args.Out, 0);
  EXPECT_EQ(InitRow->Args.Rank, 3);
  EXPECT_TRUE(Index.has(Init, Role::Collective));
  EXPECT_EQ(Index.find(S().callee("@userrank", "ncclCommUserRank"),
                       Role::RankSource)
                ->Args.Out,
            1);
  EXPECT_EQ(Index.find(S().callee("@count", "ncclCommCount"),
                       Role::WorldSizeSource)
                ->Args.Out,
            1);
  const ApiEntry *AR = Index.find(S().callee("@ncclallreduce", "ncclAllReduce"),
                                  Role::Collective);
  ASSERT_NE(AR, nullptr);
  EXPECT_EQ(AR->Args.Comm, 5);
  EXPECT_EQ(AR->Args.Stream, 6);
  EXPECT_TRUE(
      Index.has(S().callee("@groupstart", "ncclGroupStart"), Role::GroupStart));
  EXPECT_TRUE(
      Index.has(S().callee("@ncclsend", "ncclSend"), Role::PointToPoint));
  EXPECT_TRUE(Index.has(S().callee("@asyncerr", "ncclCommGetAsyncError"),
                        Role::AsyncErrorCheck));
  EXPECT_TRUE(Index.has(S().callee("@streamsync", "cudaStreamSynchronize"),
                        Role::StreamSync));
  const FunctionDecl *Memcpy = S().callee("@memcpy", "cudaMemcpy");
  EXPECT_TRUE(Index.has(Memcpy, Role::HostWaitOnDevice));
  EXPECT_EQ(Index.find(Memcpy, Role::ImplicitSync)->Args.Flag, 3);
  EXPECT_TRUE(Index.lookup(S().callee("@typedmalloc", "cudaMalloc")).empty());
  EXPECT_TRUE(Index.has(S().callee("@devsync", "cudaDeviceSynchronize"),
                        Role::DeviceSync));
}

TEST_F(CMatching, StandardLibraryThroughStdNames) {
  EXPECT_EQ(Index.find(S().callee("@getenv", "getenv"), Role::EnvRead)
                ->Args.Count,
            0);
  EXPECT_TRUE(Index.has(S().callee("@stoi", "stoi"), Role::Parse));
  EXPECT_TRUE(Index.has(S().callee("@atoi", "atoi"), Role::Parse));
  EXPECT_TRUE(Index.has(S().callee("@steady", "now"), Role::LocalDataSource));
  EXPECT_TRUE(
      Index.has(S().callee("@rdev", "operator()"), Role::LocalDataSource));
  EXPECT_TRUE(
      Index.has(S().callee("@fsexists", "exists"), Role::LocalDataSource));
  EXPECT_TRUE(
      Index.has(S().callee("@isopen", "is_open"), Role::LocalDataSource));
  EXPECT_EQ(Index.find(S().callee("@setenv", "setenv"), Role::EnvWrite)
                ->Args.Value,
            1);
  EXPECT_TRUE(Index.has(S().callee("@exit", "exit"), Role::FailStop));
  EXPECT_TRUE(Index.has(S().callee("@terminate", "terminate"), Role::FailStop));
  EXPECT_TRUE(Index.has(S().callee("@assert", "__assert_fail"), Role::FailStop));
}

TEST_F(CMatching, EnvironmentVariables) {
  for (const char *Name :
       {"RANK", "LOCAL_RANK", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
        "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "SLURM_LOCALID",
        "MV2_COMM_WORLD_RANK"})
    EXPECT_NE(envVariable(Name, Role::RankSource), nullptr) << Name;
  for (const char *Name :
       {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS", "PMI_SIZE"})
    EXPECT_NE(envVariable(Name, Role::WorldSizeSource), nullptr) << Name;
  EXPECT_EQ(envVariable("WORLD_SIZE", Role::RankSource), nullptr);
  EXPECT_EQ(envVariable("HOME", Role::RankSource), nullptr);
  EXPECT_EQ(envVariable("MASTER_ADDR", Role::RankSource), nullptr);
  for (const char *Name : {"TORCH_NCCL_ASYNC_ERROR_HANDLING",
                           "NCCL_ASYNC_ERROR_HANDLING",
                           "TORCH_NCCL_ENABLE_MONITORING"}) {
    const ApiEntry *E = envVariable(Name, Role::TimeoutKnob);
    ASSERT_NE(E, nullptr) << Name;
    EXPECT_EQ(E->Facts.DisablingValue, 0) << Name;
  }
}

TEST_F(CMatching, UserDeclaredRows) {
  UserApi User;
  User.RankSources.push_back("user::get_rank");
  ApiIndex WithUser(User);
  const FunctionDecl *FD = S().callee("@usersource", "get_rank");
  ASSERT_NE(FD, nullptr);
  EXPECT_TRUE(Index.lookup(FD).empty());
  const ApiEntry *E = WithUser.find(FD, Role::RankSource);
  ASSERT_NE(E, nullptr);
  EXPECT_EQ(E->Fam, Family::User);
}

//===--- LibTorch tensors, training, data ---------------------------------===//
const char *TorchCode = R"cpp(
#include <torch/torch.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); } // @holdercall
  torch::nn::Linear fc{nullptr};
};
struct Plain { torch::Tensor forward(torch::Tensor x) { return x; } };
struct Ds : torch::data::datasets::Dataset<Ds> {
  torch::data::Example<> get(size_t) override { return {}; }
  torch::optional<size_t> size() const override { return 8; }
};

void train(Net &net, Plain &plain, torch::optim::SGD &opt) {
  torch::Device dev(torch::kCUDA); // @device
  auto x = torch::randn({2, 4}).to(dev); // @randn
  auto y = net.forward(x); // @forward
  auto z = plain.forward(x); // @plainforward
  auto loss = y.sum();
  loss.backward(); // @backward
  opt.step(); // @step
  opt.zero_grad();
  float v = loss.item<float>(); // @itemT
  auto s = loss.item(); // @item
  float *p = loss.data_ptr<float>(); // @dataptr
  auto c = loss.cpu(); // @cpu
  bool nz = loss.is_nonzero(); // @nonzero
  std::cout << loss; // @print
  int64_t n = loss.numel(); // @numel
  torch::cuda::synchronize(); // @tcsync
  c10::cuda::device_synchronize(); // @c10sync
  auto stream = at::cuda::getCurrentCUDAStream();
  stream.synchronize(); // @streamsync
  at::cuda::CUDAEvent ev;
  ev.synchronize(); // @eventsync
  bool avail = torch::cuda::is_available(); // @avail
  (void)v; (void)s; (void)p; (void)c; (void)nz; (void)n; (void)z; (void)avail;
}

void data(int rank, int world) {
  auto ds = Ds().map(torch::data::transforms::Stack<>());
  torch::data::samplers::DistributedRandomSampler sampler(8, world, rank); // @sampler
  sampler.set_epoch(3); // @setepoch
  auto loader = torch::data::make_data_loader(ds, sampler, torch::data::DataLoaderOptions(2)); // @loader3
  for (auto &batch : *loader) { (void)batch; } // @iterate
  auto own = torch::data::make_data_loader<torch::data::samplers::DistributedRandomSampler>(ds, 2); // @loader2
  (void)own;
}
)cpp";

class TorchMatching : public ::testing::Test {
protected:
  static void SetUpTestSuite() { Code = new Snippet(TorchCode); }
  static void TearDownTestSuite() { delete Code; }
  const Snippet &S() const { return *Code; }
  ApiIndex Index;
  static Snippet *Code;
};
Snippet *TorchMatching::Code;

TEST_F(TorchMatching, SnippetCompiles) { ASSERT_TRUE(S().ok()); }

TEST_F(TorchMatching, TrainingSteps) {
  EXPECT_TRUE(Index.has(S().callee("@forward", "forward"), Role::TrainingStep));
  EXPECT_TRUE(
      Index.has(S().callee("@holdercall", "operator()"), Role::TrainingStep));
  EXPECT_TRUE(Index.lookup(S().callee("@plainforward", "forward")).empty());
  EXPECT_TRUE(
      Index.has(S().callee("@backward", "backward"), Role::TrainingStep));
  EXPECT_TRUE(Index.has(S().callee("@step", "step"), Role::TrainingStep));
}

TEST_F(TorchMatching, TemplateMethodsAndSyncs) {
  const FunctionDecl *ItemT = S().callee("@itemT", "item");
  ASSERT_NE(ItemT, nullptr);
  EXPECT_TRUE(ItemT->isTemplateInstantiation());
  EXPECT_TRUE(Index.has(ItemT, Role::ImplicitSync));
  EXPECT_TRUE(Index.has(ItemT, Role::TensorRead));
  EXPECT_TRUE(Index.has(S().callee("@item", "item"), Role::ImplicitSync));
  EXPECT_TRUE(Index.has(S().callee("@dataptr", "data_ptr"), Role::TensorRead));
  EXPECT_FALSE(
      Index.has(S().callee("@dataptr", "data_ptr"), Role::ImplicitSync));
  EXPECT_TRUE(Index.has(S().callee("@cpu", "cpu"), Role::ImplicitSync));
  EXPECT_TRUE(
      Index.has(S().callee("@nonzero", "is_nonzero"), Role::ImplicitSync));
  EXPECT_TRUE(Index.has(S().callee("@print", "operator<<"), Role::ImplicitSync));
  EXPECT_TRUE(Index.has(S().callee("@numel", "numel"), Role::ShapeQuery));
  EXPECT_TRUE(
      Index.has(S().callee("@randn", "randn"), Role::LocalDataSource));
  EXPECT_TRUE(
      Index.has(S().callee("@tcsync", "synchronize"), Role::DeviceSync));
  EXPECT_TRUE(Index.has(S().callee("@c10sync", "device_synchronize"),
                        Role::DeviceSync));
  EXPECT_TRUE(
      Index.has(S().callee("@streamsync", "synchronize"), Role::StreamSync));
  EXPECT_TRUE(
      Index.has(S().callee("@eventsync", "synchronize"), Role::EventSync));
  const FunctionDecl *Avail = S().callee("@avail", "is_available");
  EXPECT_TRUE(Index.has(Avail, Role::UniformValue));
  EXPECT_TRUE(Index.has(Avail, Role::DeviceSelect));
}

TEST_F(TorchMatching, Devices) {
  const CXXConstructorDecl *Dev = S().constructor("@device", "Device");
  ASSERT_NE(Dev, nullptr);
  EXPECT_TRUE(Index.has(Dev, Role::DeviceSelect));
  const DeclRefExpr *KCuda = S().declRef("@device", "kCUDA");
  ASSERT_NE(KCuda, nullptr);
  EXPECT_EQ(api::qualifiedName(KCuda->getDecl()), "c10::kCUDA");
  EXPECT_TRUE(Index.findMember(KCuda->getDecl(), Role::DeviceSelect));
}

TEST_F(TorchMatching, SamplersAndLoaders) {
  const CXXConstructorDecl *Ctor =
      S().constructor("@sampler", "DistributedRandomSampler");
  ASSERT_NE(Ctor, nullptr);
  const ApiEntry *SamplerRow = Index.find(Ctor, Role::SamplerType);
  ASSERT_NE(SamplerRow, nullptr);
  EXPECT_EQ(SamplerRow->Args.WorldSize, 1);
  EXPECT_EQ(SamplerRow->Args.Rank, 2);
  EXPECT_EQ(SamplerRow->Args.Flag, 3);
  const ApiEntry *Type = Index.findType(Ctor->getParent(), Role::SamplerType);
  ASSERT_NE(Type, nullptr);
  EXPECT_STREQ(Type->Name, "torch::data::samplers::DistributedRandomSampler");

  // set_epoch is inherited from the DistributedSampler<> specialization.
  const FunctionDecl *SetEpoch = S().callee("@setepoch", "set_epoch");
  ASSERT_NE(SetEpoch, nullptr);
  EXPECT_TRUE(Index.has(SetEpoch, Role::SetEpoch));

  const ApiEntry *Three =
      Index.find(S().callee("@loader3", "make_data_loader"),
                 Role::DataLoaderFactory);
  ASSERT_NE(Three, nullptr);
  EXPECT_EQ(Three->Args.Sampler, 1);
  const ApiEntry *Two =
      Index.find(S().callee("@loader2", "make_data_loader"),
                 Role::DataLoaderFactory);
  ASSERT_NE(Two, nullptr);
  EXPECT_EQ(Two->Args.Sampler, -1);
  EXPECT_EQ(Two->Args.NumParams, 2);
  EXPECT_TRUE(
      Index.has(S().callee("@iterate", "begin"), Role::DataLoaderIterate));
}

} // namespace
