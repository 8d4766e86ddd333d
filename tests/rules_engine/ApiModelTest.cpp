//===- ApiModelTest.cpp - The role -> transfer table of the API model -----===//
//
// One case per api::Role: the table has a row for every role, in order;
// each transfer is run on a parsed call with a recording environment that
// hands out chosen argument values, and its result or its writes are
// checked. Roles without transfers are checked to have none (their
// meaning lives in other engine questions). Also the typed row facts that
// replaced the meaning of Detail strings, on the real tables.
//
//===----------------------------------------------------------------------===//
#include "engine/model/ApiModel.h"
#include "ApiTestSupport.h"

#include "gtest/gtest.h"

#include <map>
#include <set>
#include <vector>

using namespace clang;
using namespace distlint;
using namespace distlint::model;
using api::ApiEntry;
using api::ArgRoles;
using api::Family;
using api::Role;

namespace {

const char *Code = R"cpp(
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
                      cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice,
                      cudaMemcpyDefault };
struct Tensor { long numel() const; float item() const; };
int source();
int out_source(int comm, int *out);
double clock_now();
void fill_random(int *out);
void load(const char *path, Tensor *out);
Tensor rand_like(Tensor t);
const char *get_env(const char *name);
int parse(const char *text);
int store_get(const char *key);
int reduce(int *buf, int n);
int split(int comm, int color, int *out);
int copy(void *dst, const void *src, unsigned long n, cudaMemcpyKind kind);
namespace std {
struct basic_ios { bool good() const; };
struct basic_istream : basic_ios {};
struct basic_ifstream : basic_istream { basic_ifstream(const char *path); };
basic_istream &getline(basic_istream &in, char *line);
}
void read(const char *path, char *line) {
  std::basic_ifstream in(path);
  in.good();                                  // @opened
  std::getline(in, line).good();              // @readend
}
void f(int comm, int *p, const char *s, Tensor t, int host[4], int dev[4]) {
  source();                                   // @plain
  out_source(comm, p);                        // @out
  clock_now();                                // @clock
  fill_random(p);                             // @fill
  load(s, &t);                                // @load
  get_env("RANK");                            // @envrank
  get_env("WORLD_SIZE");                      // @envsize
  get_env("HOME");                            // @envhome
  get_env(s);                                 // @envvar
  parse(s);                                   // @parse
  store_get(s);                               // @storeget
  reduce(p, 4);                               // @reduce
  split(comm, 1, p);                          // @split
  t.item();                                   // @item
  t.numel();                                  // @numel
  rand_like(t);                               // @randlike
  copy(host, dev, 16, cudaMemcpyDeviceToHost); // @d2h
  copy(dev, host, 16, cudaMemcpyHostToDevice); // @h2d
}
)cpp";

/// Hands out chosen values (by expression) and records what is written.
class RecordingEnv : public ModelEnv {
public:
  std::map<const Expr *, Taint> Values;
  std::vector<std::pair<const Expr *, Taint>> Assigned;
  std::vector<const Expr *> Uniform, SubComms;
  bool ShapeVaries = false;
  uint64_t ShapeKey = 0;

  Taint eval(const Expr *X) override {
    auto It = Values.find(X);
    return It == Values.end() ? Taint() : It->second;
  }
  void assign(const Expr *LValue, const Taint &T) override {
    Assigned.push_back({LValue, T});
  }
  void markUniform(const Expr *Buffer) override { Uniform.push_back(Buffer); }
  uint8_t resultVaryingDims() override {
    return ShapeVaries ? Taint::AllDims : 0;
  }
  uint64_t resultShapeKey() override { return ShapeKey; }
  void noteSubCommunicator(const Expr *Out) override {
    SubComms.push_back(Out);
  }
  std::vector<const Expr *> OtherComms;
  void noteOtherCommunicator(const Expr *Out) override {
    OtherComms.push_back(Out);
  }
  bool isSubCommunicator(const Expr *Comm) override {
    return llvm::is_contained(SubComms, Comm);
  }
  std::vector<const Expr *> Modules;
  bool isModuleObject(const Expr *X) override {
    return llvm::is_contained(Modules, X);
  }
  unsigned Broadcasts = 0;
  void receiveBroadcast(const api::ApiEntry &) override { ++Broadcasts; }
};

class ApiModelTest : public ::testing::Test {
protected:
  static apitest::Snippet &S() {
    static apitest::Snippet Snip(Code, {}, /*UseTestdataInclude=*/false);
    return Snip;
  }
  void SetUp() override { ASSERT_TRUE(S().ok()); }

  /// The call on Marker's line, split as the data-flow splits it.
  struct Site {
    const CallExpr *Call = nullptr;
    const Expr *Receiver = nullptr;
    std::vector<const Expr *> Args;
  };
  Site site(llvm::StringRef Marker, llvm::StringRef Callee) {
    Site Out;
    Out.Call = S().call(Marker, Callee);
    EXPECT_NE(Out.Call, nullptr) << Marker.str();
    if (!Out.Call)
      return Out;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Out.Call))
      Out.Receiver = MC->getImplicitObjectArgument();
    for (const Expr *A : Out.Call->arguments())
      Out.Args.push_back(A);
    return Out;
  }
  std::optional<Taint> ret(Role R, const Site &St, const ApiEntry &Row,
                           RecordingEnv &Env) {
    ReturnTransfer T = modelOf(R).Return;
    EXPECT_NE(T, nullptr) << api::roleName(R);
    if (!T || !St.Call)
      return std::nullopt;
    return T({St.Call, Row, St.Receiver, St.Args, Taint()}, Env);
  }
  void effects(Role R, const Site &St, const ApiEntry &Row, RecordingEnv &Env,
               Taint Control = Taint()) {
    EffectsTransfer T = modelOf(R).Effects;
    EXPECT_NE(T, nullptr) << api::roleName(R);
    if (T && St.Call)
      T({St.Call, Row, St.Receiver, St.Args, Control}, Env);
  }
  static ApiEntry row(Role R, ArgRoles A = {}, const char *Detail = "") {
    return ApiEntry(Family::User, R, "test", A, Detail);
  }
  static Taint varying(VaryKind K = VaryKind::Rank) {
    return Taint::varying(K, SourceLocation(), "test");
  }
};

constexpr ArgRoles A;
const IntRange RankRange{{0, 0}, {1, -1}};
const IntRange WorldRange{{1, 0}, {1, 0}};

TEST_F(ApiModelTest, OneRowPerRoleInEnumOrder) {
  auto Table = apiModel();
  ASSERT_EQ(Table.size(), api::NumRoles);
  for (unsigned I = 0; I < Table.size(); ++I) {
    EXPECT_EQ(unsigned(Table[I].TheRole), I) << "row " << I;
    EXPECT_EQ(&modelOf(Role(I)), &Table[I]);
  }
}

TEST_F(ApiModelTest, CollectiveResultIsUniformAndItsBufferBecomesUniform) {
  Site St = site("@reduce", "reduce");
  RecordingEnv Env;
  Env.Values[St.Args[0]] = varying();
  auto T = ret(Role::Collective, St, row(Role::Collective, A.recv(0)), Env);
  ASSERT_TRUE(T);
  EXPECT_FALSE(T->Vary);
  EXPECT_TRUE(T->UniformContent);
  effects(Role::Collective, St, row(Role::Collective, A.recv(0)), Env);
  ASSERT_EQ(Env.Uniform.size(), 1u);
  EXPECT_EQ(Env.Uniform[0], St.Args[0]);
  EXPECT_TRUE(Env.Assigned.empty());
  EXPECT_EQ(Env.Broadcasts, 0u); // No root: not a broadcast.
}

TEST_F(ApiModelTest, BroadcastNamesWhatItsReceiveBufferHolds) {
  // send(0).recv(0).root(1): the root's buffer arrives in every member's.
  Site St = site("@reduce", "reduce");
  RecordingEnv Env;
  effects(Role::Collective, St,
          row(Role::Collective, A.send(0).recv(0).root(1)), Env);
  EXPECT_EQ(Env.Uniform.size(), 1u);
  EXPECT_EQ(Env.Broadcasts, 1u);
  // A gather's root receives what differs per rank: not a broadcast.
  RecordingEnv Gather;
  effects(Role::Collective, St,
          row(Role::Collective, A.send(0).recvVaries(0).root(1)), Gather);
  EXPECT_EQ(Gather.Broadcasts, 0u);
}

TEST_F(ApiModelTest, RankSourceReturnsTheRankOrWritesItThroughOut) {
  RecordingEnv Env;
  auto T = ret(Role::RankSource, site("@plain", "source"),
               row(Role::RankSource), Env);
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->Vary);
  EXPECT_EQ(T->Origin.Kind, VaryKind::Rank);
  EXPECT_EQ(T->Range, RankRange);

  Site Out = site("@out", "out_source");
  ApiEntry WithOut = row(Role::RankSource, A.out(1));
  auto Status = ret(Role::RankSource, Out, WithOut, Env);
  ASSERT_TRUE(Status);
  EXPECT_FALSE(Status->depends()) << "the status is not the rank";
  effects(Role::RankSource, Out, WithOut, Env);
  ASSERT_EQ(Env.Assigned.size(), 1u);
  EXPECT_EQ(Env.Assigned[0].first, Out.Args[1]);
  EXPECT_TRUE(Env.Assigned[0].second.Vary);
  EXPECT_EQ(Env.Assigned[0].second.Range, RankRange);
}

TEST_F(ApiModelTest, WorldSizeSourceIsUniformWithRangeW) {
  RecordingEnv Env;
  auto T = ret(Role::WorldSizeSource, site("@plain", "source"),
               row(Role::WorldSizeSource), Env);
  ASSERT_TRUE(T);
  EXPECT_FALSE(T->Vary);
  EXPECT_EQ(T->Range, WorldRange);
  Site Out = site("@out", "out_source");
  // Under a rank-dependent branch the written size is one value, pending
  // the join: it varies only if the other paths leave another value.
  effects(Role::WorldSizeSource, Out, row(Role::WorldSizeSource, A.out(1)), Env,
          varying());
  ASSERT_EQ(Env.Assigned.size(), 1u);
  EXPECT_EQ(Env.Assigned[0].first, Out.Args[1]);
  EXPECT_EQ(Env.Assigned[0].second.Range, WorldRange);
  EXPECT_TRUE(Env.Assigned[0].second.PendingVary);
}

TEST_F(ApiModelTest, LocalDataVariesAndFilesFollowTheirPath) {
  RecordingEnv Env;
  auto T = ret(Role::LocalDataSource, site("@clock", "clock_now"),
               row(Role::LocalDataSource), Env);
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->Vary);
  EXPECT_EQ(T->Origin.Kind, VaryKind::LocalData);

  Site Load = site("@load", "load");
  ApiEntry FromFile = row(Role::LocalDataSource, A.send(0).out(1));
  effects(Role::LocalDataSource, Load, FromFile, Env);
  ASSERT_EQ(Env.Assigned.size(), 1u);
  EXPECT_FALSE(Env.Assigned[0].second.Vary) << "same path, same data";
  EXPECT_TRUE(Env.Assigned[0].second.UniformContent);
  Env.Values[Load.Args[0]] = varying();
  effects(Role::LocalDataSource, Load, FromFile, Env);
  ASSERT_EQ(Env.Assigned.size(), 2u);
  EXPECT_TRUE(Env.Assigned[1].second.Vary) << "a path chosen by rank";

  Site Fill = site("@fill", "fill_random");
  effects(Role::LocalDataSource, Fill,
          row(Role::LocalDataSource, A.out(0), "random fill"), Env);
  ASSERT_EQ(Env.Assigned.size(), 3u);
  EXPECT_TRUE(Env.Assigned[2].second.Vary);
  EXPECT_NE(Env.Assigned[2].second.Origin.What.find("random fill"),
            std::string::npos);
}

TEST_F(ApiModelTest, ALoadIntoAModuleFillsItsValuesOnly) {
  Site Load = site("@load", "load");
  ApiEntry FromFile = row(Role::LocalDataSource, A.send(0).out(1));
  RecordingEnv Env;
  Env.Values[Load.Args[0]] = varying(); // A path chosen by the rank.
  effects(Role::LocalDataSource, Load, FromFile, Env);
  ASSERT_EQ(Env.Assigned.size(), 1u);
  EXPECT_TRUE(Env.Assigned[0].second.Vary);
  EXPECT_FALSE(Env.Assigned[0].second.ContentOnly) << "a list: its length too";
  Env.Modules.push_back(Load.Args[1]);
  effects(Role::LocalDataSource, Load, FromFile, Env);
  ASSERT_EQ(Env.Assigned.size(), 2u);
  EXPECT_TRUE(Env.Assigned[1].second.Vary);
  EXPECT_TRUE(Env.Assigned[1].second.ContentOnly)
      << "a module keeps the parameters its constructor made";
}

TEST_F(ApiModelTest, TensorReadIsUniformOnlyForUniformContents) {
  Site Item = site("@item", "item");
  ASSERT_NE(Item.Receiver, nullptr);
  RecordingEnv Env;
  auto Local = ret(Role::TensorRead, Item, row(Role::TensorRead), Env);
  ASSERT_TRUE(Local);
  EXPECT_TRUE(Local->Vary) << "a tensor's values are rank-local";
  Taint Reduced;
  Reduced.UniformContent = true;
  Env.Values[Item.Receiver] = Reduced;
  auto Same = ret(Role::TensorRead, Item, row(Role::TensorRead), Env);
  ASSERT_TRUE(Same);
  EXPECT_FALSE(Same->Vary);
  EXPECT_TRUE(Same->UniformContent);
}

TEST_F(ApiModelTest, EnvReadKnowsTheLauncherVariables) {
  RecordingEnv Env;
  auto Rank = ret(Role::EnvRead, site("@envrank", "get_env"),
                  row(Role::EnvRead, A.count(0)), Env);
  ASSERT_TRUE(Rank);
  EXPECT_TRUE(Rank->Vary);
  EXPECT_TRUE(Rank->NonNull);
  EXPECT_EQ(Rank->Range, RankRange);
  auto Size = ret(Role::EnvRead, site("@envsize", "get_env"),
                  row(Role::EnvRead, A.count(0)), Env);
  ASSERT_TRUE(Size);
  EXPECT_FALSE(Size->Vary);
  EXPECT_EQ(Size->Range, WorldRange);
  auto Home = ret(Role::EnvRead, site("@envhome", "get_env"),
                  row(Role::EnvRead, A.count(0)), Env);
  ASSERT_TRUE(Home);
  EXPECT_FALSE(Home->depends());
  // A name held in a variable that names the rank variable.
  Site ByVar = site("@envvar", "get_env");
  Taint Named;
  Named.LauncherVar = LauncherVariable::Rank;
  Env.Values[ByVar.Args[0]] = Named;
  auto Via = ret(Role::EnvRead, ByVar, row(Role::EnvRead, A.count(0)), Env);
  ASSERT_TRUE(Via);
  EXPECT_EQ(Via->Range, RankRange);
  EXPECT_EQ(Via->LauncherVar, LauncherVariable::None);
}

TEST_F(ApiModelTest, ParseHasTheTaintOfItsText) {
  Site St = site("@parse", "parse");
  RecordingEnv Env;
  Env.Values[St.Args[0]] = varying(VaryKind::LocalData);
  auto T = ret(Role::Parse, St, row(Role::Parse, A.send(0)), Env);
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->Vary);
  EXPECT_EQ(T->Origin.Kind, VaryKind::LocalData);
}

// Every reader of a key gets the bytes one rank set; a key named per rank
// reads a value per rank.
TEST_F(ApiModelTest, StoreReadIsUniformForOneKey) {
  Site St = site("@storeget", "store_get");
  ApiEntry Row = row(Role::StoreRead, A);
  RecordingEnv Env;
  Taint Key;
  Key.UniformContent = true;
  Env.Values[St.Args[0]] = Key;
  auto Same = ret(Role::StoreRead, St, Row, Env);
  ASSERT_TRUE(Same);
  EXPECT_FALSE(Same->Vary);
  EXPECT_TRUE(Same->UniformContent);
  Env.Values[St.Args[0]] = varying(VaryKind::Rank);
  auto PerRank = ret(Role::StoreRead, St, Row, Env);
  ASSERT_TRUE(PerRank);
  EXPECT_TRUE(PerRank->Vary);
  EXPECT_FALSE(PerRank->UniformContent);
}

TEST_F(ApiModelTest, CommSplitMarksItsOutputASubCommunicator) {
  Site St = site("@split", "split");
  RecordingEnv Env;
  effects(Role::CommSplit, St, row(Role::CommSplit, A.comm(0).out(2)), Env);
  ASSERT_EQ(Env.SubComms.size(), 1u);
  EXPECT_EQ(Env.SubComms[0], St.Args[2]);
  EXPECT_EQ(modelOf(Role::CommSplit).Return, nullptr);
}

TEST_F(ApiModelTest, CommDeriveKeepsTheMembershipOfItsSource) {
  Site St = site("@split", "split");
  ApiEntry Derive = row(Role::CommDerive, A.comm(0).out(2));
  RecordingEnv Env;
  effects(Role::CommDerive, St, Derive, Env);
  EXPECT_TRUE(Env.SubComms.empty()) << "a copy of a whole communicator";
  ASSERT_EQ(Env.OtherComms.size(), 1u);
  EXPECT_EQ(Env.OtherComms[0], St.Args[2]);
  Env.SubComms.push_back(St.Args[0]);
  effects(Role::CommDerive, St, Derive, Env);
  ASSERT_EQ(Env.SubComms.size(), 2u);
  EXPECT_EQ(Env.SubComms[1], St.Args[2]) << "a copy of a sub-communicator";
  EXPECT_EQ(Env.OtherComms.size(), 1u);
  EXPECT_EQ(modelOf(Role::CommDerive).Return, nullptr);
}

TEST_F(ApiModelTest, CommInitCreatesACommunicatorOfTheJob) {
  Site St = site("@split", "split");
  RecordingEnv Env;
  effects(Role::CommInit, St, row(Role::CommInit, A.out(2)), Env);
  EXPECT_TRUE(Env.SubComms.empty());
  ASSERT_EQ(Env.OtherComms.size(), 1u);
  EXPECT_EQ(Env.OtherComms[0], St.Args[2]);
}

TEST_F(ApiModelTest, CopyWritesItsDestinationByTheKindArgument) {
  ApiEntry Copy =
      row(Role::HostWaitOnDevice, A.recv(0).send(1).count(2).flag(3));
  RecordingEnv Env;
  Site D2H = site("@d2h", "copy");
  effects(Role::HostWaitOnDevice, D2H, Copy, Env);
  ASSERT_EQ(Env.Assigned.size(), 1u);
  EXPECT_EQ(Env.Assigned[0].first, D2H.Args[0]);
  EXPECT_TRUE(Env.Assigned[0].second.Vary) << "device data is rank-local";
  EXPECT_TRUE(Env.Assigned[0].second.ContentOnly) << "a buffer's elements";
  Site H2D = site("@h2d", "copy");
  effects(Role::HostWaitOnDevice, H2D, Copy, Env);
  ASSERT_EQ(Env.Assigned.size(), 2u);
  EXPECT_EQ(Env.Assigned[1].first, H2D.Args[0]);
  EXPECT_FALSE(Env.Assigned[1].second.Vary) << "host data keeps its variance";
  EXPECT_TRUE(model::copiesFromDevice(D2H.Args[3]));
  EXPECT_FALSE(model::copiesFromDevice(H2D.Args[3]));
}

TEST_F(ApiModelTest, FillGivesTheBufferItsValue) {
  // copy(host, dev, 16, ...) read as fill(buffer = 0, value = 1).
  ApiEntry Fill = row(Role::Fill, A.recv(0).value(1).count(2));
  Site St = site("@d2h", "copy");
  RecordingEnv Agreed;
  effects(Role::Fill, St, Fill, Agreed);
  ASSERT_EQ(Agreed.Uniform.size(), 1u) << "a value every rank passes";
  EXPECT_EQ(Agreed.Uniform[0], St.Args[0]);
  EXPECT_TRUE(Agreed.Assigned.empty());
  RecordingEnv Local;
  Local.Values[St.Args[1]] = varying();
  effects(Role::Fill, St, Fill, Local);
  EXPECT_TRUE(Local.Uniform.empty());
  ASSERT_EQ(Local.Assigned.size(), 1u);
  EXPECT_EQ(Local.Assigned[0].first, St.Args[0]);
  EXPECT_TRUE(Local.Assigned[0].second.Vary) << "this rank's value";
  EXPECT_TRUE(Local.Assigned[0].second.ContentOnly) << "a buffer's bytes";
}

TEST_F(ApiModelTest, UniformValueIsUniform) {
  RecordingEnv Env;
  auto T = ret(Role::UniformValue, site("@plain", "source"),
               row(Role::UniformValue), Env);
  ASSERT_TRUE(T);
  EXPECT_FALSE(T->depends());
  EXPECT_TRUE(T->UniformContent);
}

// A random tensor's values differ; its shape is the one the call fixes
// (here: its input's), so a rank branch choosing it keeps the shape known.
TEST_F(ApiModelTest, RandomTensorKeepsTheShapeItWasGiven) {
  Site Draw = site("@randlike", "rand_like");
  RecordingEnv Env;
  Env.ShapeKey = 42;
  auto T = ret(Role::LocalDataSource, Draw, row(Role::LocalDataSource), Env);
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->Vary);
  EXPECT_TRUE(T->ContentOnly) << "only the values differ";
  EXPECT_EQ(T->ShapeKey, 42u);
  Env.ShapeVaries = true;
  Env.ShapeKey = 0;
  auto Differs =
      ret(Role::LocalDataSource, Draw, row(Role::LocalDataSource), Env);
  ASSERT_TRUE(Differs);
  EXPECT_FALSE(Differs->ContentOnly) << "sized by a rank-local value";
  EXPECT_EQ(Differs->ShapeKey, 0u);
}

TEST_F(ApiModelTest, ShapeQueryReadsTheShapeNotTheContents) {
  Site Numel = site("@numel", "numel");
  ASSERT_NE(Numel.Receiver, nullptr);
  RecordingEnv Env;
  Taint Values = varying(VaryKind::LocalData);
  Values.ContentOnly = true;
  Env.Values[Numel.Receiver] = Values;
  auto Same = ret(Role::ShapeQuery, Numel, row(Role::ShapeQuery), Env);
  ASSERT_TRUE(Same);
  EXPECT_FALSE(Same->Vary) << "only the values differ";
  Env.Values[Numel.Receiver] = varying(VaryKind::LocalData);
  auto Differs = ret(Role::ShapeQuery, Numel, row(Role::ShapeQuery), Env);
  ASSERT_TRUE(Differs);
  EXPECT_TRUE(Differs->Vary) << "the length differs";
}

// A stream's state tested on the stream itself says whether the file opened
// on this node; tested on what a read returned, whether the input ended:
// as uniform as what the stream reads.
TEST_F(ApiModelTest, StreamStateFollowsTheContentAfterARead) {
  Site Opened = site("@opened", "good"), ReadEnd = site("@readend", "good");
  const CallExpr *Read = S().call("@readend", "getline");
  ASSERT_NE(Read, nullptr);
  ApiEntry Row = row(Role::StreamState);
  RecordingEnv Env;
  auto Open = ret(Role::StreamState, Opened, Row, Env);
  ASSERT_TRUE(Open);
  EXPECT_TRUE(Open->Vary);
  EXPECT_EQ(Open->Origin.Kind, VaryKind::LocalData);
  auto End = ret(Role::StreamState, ReadEnd, Row, Env);
  ASSERT_TRUE(End);
  EXPECT_FALSE(End->Vary) << "a file every rank names alike";
  Env.Values[Read->getArg(0)] = varying(VaryKind::Rank);
  auto PerRank = ret(Role::StreamState, ReadEnd, Row, Env);
  ASSERT_TRUE(PerRank);
  EXPECT_TRUE(PerRank->Vary) << "a file chosen by the rank";
  EXPECT_EQ(PerRank->Origin.Kind, VaryKind::LocalData);
}

// Roles whose meaning the uniformity data-flow does not model: they are
// answered by other engine questions (sequences, syncs, timeouts, loaders).
TEST_F(ApiModelTest, OtherRolesHaveNoValueTransfer) {
  const std::set<Role> WithTransfers = {Role::Collective,
                                        Role::RankSource,
                                        Role::WorldSizeSource,
                                        Role::LocalDataSource,
                                        Role::TensorRead,
                                        Role::EnvRead,
                                        Role::Parse,
                                        Role::CommSplit,
                                        Role::HostWaitOnDevice,
                                        Role::UniformValue,
                                        Role::ShapeQuery,
                                        Role::CommDerive,
                                        Role::StoreRead,
                                        Role::ObjectAllocation,
                                        Role::CommInit,
                                        Role::AsyncCopy,
                                        Role::Fill,
                                        Role::StreamState};
  for (const RoleModel &M : apiModel()) {
    bool Has = M.Return || M.Effects;
    EXPECT_EQ(Has, WithTransfers.count(M.TheRole) == 1)
        << api::roleName(M.TheRole);
  }
}

// The typed facts that replaced meaning in Detail strings, on the tables.
TEST(ApiRowFacts, TablesCarryTypedFacts) {
  api::ApiIndex Index;
  auto One = [&](const char *Name, Role R) -> const ApiEntry * {
    for (const ApiEntry *E : Index.byName(Name))
      if (E->TheRole == R)
        return E;
    ADD_FAILURE() << "no row " << Name;
    return nullptr;
  };
  if (auto *E = One("c10::kCUDA", Role::DeviceSelect))
    EXPECT_EQ(E->Facts.Device, api::DeviceType::Cuda);
  if (auto *E = One("c10::kCPU", Role::DeviceSelect))
    EXPECT_EQ(E->Facts.Device, api::DeviceType::Cpu);
  if (auto *E = One("torch::data::samplers::RandomSampler", Role::SamplerType))
    EXPECT_TRUE(E->Facts.ShufflesByEpoch);
  if (auto *E =
          One("torch::data::samplers::SequentialSampler", Role::SamplerType))
    EXPECT_FALSE(E->Facts.ShufflesByEpoch);
  if (auto *E = One("c10d::TCPStoreOptions::timeout", Role::TimeoutKnob))
    EXPECT_TRUE(E->Facts.StoreTimeout);
  if (auto *E = One("c10d::ProcessGroup::Options::timeout", Role::TimeoutKnob))
    EXPECT_FALSE(E->Facts.StoreTimeout);
  if (auto *E = One("c10d::kUnsetTimeout", Role::TimeoutConstant))
    EXPECT_EQ(E->Facts.Timeout, api::TimeoutValue::Unset);
  if (auto *E = One("c10d::Store::kDefaultTimeout", Role::TimeoutConstant))
    EXPECT_EQ(E->Facts.Timeout, api::TimeoutValue::Default);
  if (auto *E = One("ncclCommInitRank", Role::Collective))
    EXPECT_TRUE(E->Facts.CreatesCommunicator);
  if (auto *E = One("ncclAllReduce", Role::Collective))
    EXPECT_FALSE(E->Facts.CreatesCommunicator);
}

} // namespace
