//===- EngineFacilitiesTest.cpp - Loops, values, devices, object flow -----===//
#include "ApiTestSupport.h"
#include "engine/Budget.h"
#include "engine/Construction.h"
#include "engine/Engine.h"
#include "engine/Values.h"
#include "engine/devices/Devices.h"
#include "engine/devices/HostReads.h"
#include "engine/loops/Loops.h"
#include "engine/objects/ObjectFlow.h"
#include "engine/timeouts/Timeouts.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace distlint;
using apitest::Snippet;

namespace {

/// A snippet with an Engine over it.
struct Fixture {
  explicit Fixture(std::string Code, std::vector<std::string> Args = {})
      : S(std::move(Code), std::move(Args)) {
    if (S.ok())
      E = std::make_unique<Engine>(S.context(), Api);
  }
  Snippet S;
  api::ApiIndex Api;
  std::unique_ptr<Engine> E;
};

const char *TrainingPrelude = R"cpp(
#include <torch/torch.h>
#include <iostream>
torch::Tensor step(torch::nn::Linear &m, torch::optim::SGD &o) {
  auto loss = m->forward(torch::randn({2, 2}, torch::kCUDA)).sum();
  loss.backward();
  o.step();
  return loss;
}
bool every(long s, long n) { return s % n == 0; }
)cpp";

TEST(Loops, PeriodicGuardsAndTheirLookalikes) {
  Fixture F(std::string(TrainingPrelude) + R"cpp(
void train(torch::nn::Linear &m, torch::optim::SGD &o, int rank, bool verbose,
           long every_n) {
  int since = 0;
  long next = 10;
  for (long i = 0; i < 100; ++i) {
    auto loss = step(m, o);
    if (i % every_n == 0) loss.item(); // @mod
    if ((i + 1) % 50 == 0) loss.item(); // @mod_offset
    if ((i & 63) == 0) loss.item(); // @mask
    if (every(i, every_n)) loss.item(); // @helper
    if (++since == 20) { since = 0; loss.item(); } // @reset
    if (i >= next) { next += 10; loss.item(); } // @advance
    if (i == 99) loss.item(); // @last
    if (rank % 2 == 0) loss.item(); // @rank_mod
    if (verbose) loss.item(); // @flag
    if (i != 99) loss.item(); // @not_last
  }
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  auto Guarded = [&](const char *Marker) {
    const CallExpr *Item = F.S.call(Marker, "item");
    EXPECT_NE(Item, nullptr) << Marker;
    if (!Item)
      return false;
    const Stmt *Loop = F.E->enclosingLoop(Item);
    EXPECT_NE(Loop, nullptr) << Marker;
    EXPECT_TRUE(F.E->isTrainingLoop(Loop)) << Marker;
    return F.E->isPeriodicallyGuarded(Item, Loop);
  };
  for (const char *M : {"@mod", "@mod_offset", "@mask", "@helper", "@reset",
                        "@advance", "@last"})
    EXPECT_TRUE(Guarded(M)) << M;
  for (const char *M : {"@rank_mod", "@flag", "@not_last"})
    EXPECT_FALSE(Guarded(M)) << M;
}

TEST(Loops, StepLoopsEpochLoopsAndHelpers) {
  Fixture F(std::string(TrainingPrelude) + R"cpp(
void log_loss(const torch::Tensor &l) { std::cout << l.item<float>(); } // @in_helper
void epoch(torch::nn::Linear &m, torch::optim::SGD &o) {
  for (int b = 0; b < 10; ++b) {
    auto loss = step(m, o);
    log_loss(loss);
  }
}
void train(torch::nn::Linear &m, torch::optim::SGD &o) {
  for (int e = 0; e < 3; ++e) {
    epoch(m, o);
    torch::zeros({1}).item(); // @per_epoch
  }
  for (int k = 0; k < 3; ++k)
    torch::zeros({1}).item(); // @no_training
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  const CallExpr *InHelper = F.S.call("@in_helper", "item");
  ASSERT_NE(InHelper, nullptr);
  auto Ctx = runsEveryStep(*F.E, InHelper);
  ASSERT_TRUE(Ctx.has_value());
  EXPECT_TRUE(isStepLoop(*F.E, Ctx->Loop));
  ASSERT_EQ(Ctx->Via.size(), 1u);
  EXPECT_FALSE(runsEveryStep(*F.E, F.S.call("@per_epoch", "item")));
  const CallExpr *NoTraining = F.S.call("@no_training", "item");
  EXPECT_FALSE(F.E->isTrainingLoop(F.E->enclosingLoop(NoTraining)));
  EXPECT_FALSE(runsEveryStep(*F.E, NoTraining));
  // The epoch loop reaches training only through epoch(): a training loop,
  // but not a step loop.
  const Stmt *EpochLoop = F.E->enclosingLoop(F.S.call("@per_epoch", "item"));
  EXPECT_TRUE(F.E->isTrainingLoop(EpochLoop));
  EXPECT_FALSE(isStepLoop(*F.E, EpochLoop));
}

TEST(Loops, OptInGuardsReadRunTimeOptionsAtTheirDefaults) {
  Fixture F(std::string(TrainingPrelude) + R"cpp(
#include <cstdlib>
#include <cstring>
struct Args { int level = 1; bool trace = false; };
Args parse(int argc, char **argv) {
  Args a;
  if (argc > 2 && std::strcmp(argv[2], "--trace") == 0) a.trace = true;
  return a;
}
bool gpu_present();
int main(int argc, char **argv) {
  int variant = 2;
  if (argc > 1) variant = std::atoi(argv[1]);
  const char *env = std::getenv("SYNC");
  int sync = env ? std::atoi(env) : 0;
  bool gpu = gpu_present();
  int tries = 3;
  Args args = parse(argc, argv);
  torch::nn::Linear m(2, 2);
  torch::optim::SGD o(m->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    auto loss = step(m, o);
    if (variant == 6) loss.item(); // @variant
    if (variant != 6) loss.item(); // @default_variant
    if (sync > 0 && variant > 1) loss.item(); // @two_options
    if (args.trace) loss.item(); // @field
    if (args.level >= 1) loss.item(); // @field_default_on
    if (gpu) loss.item(); // @machine
    if (tries == 3) loss.item(); // @constant
  }
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  auto OptIn = [&](const char *Marker) {
    const CallExpr *Item = F.S.call(Marker, "item");
    EXPECT_NE(Item, nullptr) << Marker;
    auto Ctx = Item ? runsEveryStep(*F.E, Item) : std::nullopt;
    EXPECT_TRUE(Ctx.has_value()) << Marker;
    return Ctx ? optInGuard(*F.E, Item, *Ctx) : std::nullopt;
  };
  auto Variant = OptIn("@variant");
  ASSERT_TRUE(Variant.has_value());
  EXPECT_EQ(Variant->Option->getName(), "variant");
  EXPECT_EQ(Variant->Default, 2);
  auto Both = OptIn("@two_options");
  ASSERT_TRUE(Both.has_value());
  EXPECT_EQ(Both->Option->getName(), "sync");
  EXPECT_EQ(Both->Default, 0);
  auto Field = OptIn("@field");
  ASSERT_TRUE(Field.has_value());
  EXPECT_EQ(Field->Option->getName(), "trace");
  // On by default, a fact of the machine, or no option at all.
  for (const char *M :
       {"@default_variant", "@field_default_on", "@machine", "@constant"})
    EXPECT_FALSE(OptIn(M).has_value()) << M;
}

TEST(Loops, ReachesThroughRecursion) {
  Fixture F(R"cpp(
#include <torch/torch.h>
void b(int n, torch::Tensor &t);
void a(int n, torch::Tensor &t) { if (n) b(n - 1, t); } // @a
void b(int n, torch::Tensor &t) { if (n) a(n - 1, t); else t.backward(); }
void c(int n) { if (n) c(n - 1); } // @c
)cpp");
  ASSERT_TRUE(F.S.ok());
  EXPECT_TRUE(F.E->functionReaches(F.S.call("@a", "b")->getDirectCallee(),
                                   api::Role::TrainingStep));
  const FunctionDecl *C = F.S.call("@c", "c")->getDirectCallee();
  EXPECT_FALSE(F.E->functionReaches(C, api::Role::TrainingStep));
  EXPECT_FALSE(F.E->functionReaches(C, api::Role::TrainingStep)); // memoized
}

TEST(Values, DurationsAndNamedTimeouts) {
  Fixture F(R"cpp(
#include <torch/csrc/distributed/c10d/Store.hpp>
#include <chrono>
using namespace std::chrono_literals;
void take(std::chrono::milliseconds);
void takef(std::chrono::duration<float>);
void f() {
  const auto two_days = std::chrono::hours(48);
  take(two_days); // @local
  take(30s); // @literal
  take(std::chrono::minutes(5)); // @minutes
  take(c10d::Store::kNoTimeout); // @none
  takef(std::chrono::duration<float>(1.5f)); // @float
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  auto Ms = [&](const char *Marker, const char *Fn) {
    return evaluateDurationMs(*F.E, F.S.call(Marker, Fn)->getArg(0));
  };
  EXPECT_EQ(Ms("@local", "take"), 48.0 * 3600 * 1000);
  EXPECT_EQ(Ms("@literal", "take"), 30000.0);
  EXPECT_EQ(Ms("@minutes", "take"), 300000.0);
  EXPECT_EQ(Ms("@none", "take"), 0.0);
  EXPECT_EQ(Ms("@float", "takef"), 1500.0);
}

TEST(Timeouts, LibraryDefaultOfEachBackendAndRelease) {
  const char *Code = R"cpp(
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
)cpp";
  auto Default = [](Fixture &F, const char *Class) {
    return libraryDefaultTimeout(
        *F.E,
        cast<CXXRecordDecl>(F.S.allDecls(Class).front())->getDefinition());
  };
  Fixture V1(Code);
  ASSERT_TRUE(V1.S.ok());
  LibraryDefault Nccl1 = Default(V1, "c10d::ProcessGroupNCCL");
  EXPECT_EQ(Nccl1.HeadersMajor, 1);
  EXPECT_EQ(Nccl1.Constant, "kProcessGroupDefaultTimeout");
  EXPECT_EQ(Nccl1.Ms, 30.0 * 60 * 1000);

  Fixture V2(Code, {"-DDISTLINT_TORCH_2X"});
  ASSERT_TRUE(V2.S.ok());
  LibraryDefault Nccl2 = Default(V2, "c10d::ProcessGroupNCCL");
  EXPECT_EQ(Nccl2.HeadersMajor, 2);
  EXPECT_EQ(Nccl2.Constant, "c10d::kProcessGroupNCCLDefaultTimeout");
  EXPECT_EQ(Nccl2.Ms, 10.0 * 60 * 1000);
  LibraryDefault Gloo2 = Default(V2, "c10d::ProcessGroupGloo");
  EXPECT_EQ(Gloo2.Constant, "kBackendDefaultTimeout");
  EXPECT_EQ(Gloo2.Ms, 30.0 * 60 * 1000);
}

TEST(ControlFlow, CodeAfterReturnNeverRunsButHandlersDo) {
  Fixture F(R"cpp(
void g();
void f(int n) {
  if (n)
    g(); // @taken
  return;
  g(); // @after
}
void h() {
  try {
    g(); // @try
  } catch (...) {
    g(); // @handler
  }
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  EXPECT_FALSE(F.E->neverRuns(F.S.call("@taken", "g")));
  EXPECT_TRUE(F.E->neverRuns(F.S.call("@after", "g")));
  EXPECT_FALSE(F.E->neverRuns(F.S.call("@try", "g")));
  EXPECT_FALSE(F.E->neverRuns(F.S.call("@handler", "g")));
}

TEST(Devices, KindsAndTheTranslationUnit) {
  Fixture Cpu(R"cpp(
#include <torch/torch.h>
void f(torch::Tensor t) {
  torch::Device d(torch::kCPU);
  t.to(d).item(); // @cpu
}
)cpp");
  ASSERT_TRUE(Cpu.S.ok());
  EXPECT_FALSE(mayUseCuda(*Cpu.E));
  EXPECT_EQ(deviceOf(*Cpu.E, Cpu.S.call("@cpu", "to")->getArg(0)),
            DeviceKind::Cpu);

  Fixture Runtime(R"cpp(
#include <torch/torch.h>
#include <string>
void f(torch::Tensor t, const std::string &name) {
  torch::Device d(name);
  t.to(d); // @runtime
}
)cpp");
  ASSERT_TRUE(Runtime.S.ok());
  EXPECT_TRUE(mayUseCuda(*Runtime.E));
  EXPECT_EQ(deviceOf(*Runtime.E, Runtime.S.call("@runtime", "to")->getArg(0)),
            DeviceKind::Unknown);
}

TEST(Construction, ForwardingFactoriesMapArguments) {
  Fixture F(R"cpp(
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <memory>
void f(const c10::intrusive_ptr<c10d::Store> &store) {
  auto a = std::make_shared<c10d::ProcessGroupNCCL>(store, 0, 2); // @shared
  auto b = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, 1, 2); // @intrusive
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  for (auto [Marker, Fn] : {std::pair{"@shared", "make_shared"},
                            std::pair{"@intrusive", "make_intrusive"}}) {
    auto C = constructionAt(*F.E, F.S.call(Marker, Fn));
    ASSERT_TRUE(C.has_value()) << Marker;
    EXPECT_EQ(C->Ctor->getParent()->getName(), "ProcessGroupNCCL");
    ASSERT_EQ(C->Args.size(), 4u);
    EXPECT_NE(C->arg(1), nullptr);
    EXPECT_EQ(C->arg(3), nullptr) << "the options are defaulted";
  }
}

TEST(ObjectFlow, FieldSetOnEveryPath) {
  Fixture F(R"cpp(
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <chrono>
using Opts = c10d::ProcessGroupNCCL::Options;
void use(c10::intrusive_ptr<Opts>);
void helper(Opts &o) { o.timeout = std::chrono::seconds(9); }
void f(bool c) {
  auto all = Opts::create();
  if (c) all->timeout = std::chrono::seconds(1);
  else { auto &r = *all; r.timeout = std::chrono::seconds(2); }
  use(all); // @all
  auto some = Opts::create();
  if (c) some->timeout = std::chrono::seconds(1);
  use(some); // @some
  auto via = Opts::create();
  helper(*via);
  use(via); // @helper
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  Engine &E = *F.E;
  FieldQuery Q;
  auto IsTimeout = [&](const FieldDecl *Fd) {
    return E.api().findMember(Fd, api::Role::TimeoutKnob) != nullptr;
  };
  auto Never = [](const Expr *) { return false; };
  Q.IsField = IsTimeout;
  Q.CreationSets = Never;
  auto At = [&](const char *Marker) {
    const CallExpr *Use = F.S.call(Marker, "use");
    return fieldSetOnEveryPath(E, designatedVar(Use->getArg(0)), Use, Q);
  };
  EXPECT_EQ(At("@all"), Tri::Yes);
  EXPECT_EQ(At("@some"), Tri::No);
  EXPECT_EQ(At("@helper"), Tri::Yes);
}

TEST(HostReads, ReadAfterSyncOrNot) {
  Fixture F(R"cpp(
#include <cuda_runtime.h>
void launch(float *p, cudaStream_t s);
void f(float *d, cudaStream_t s) {
  float *h = nullptr;
  for (int i = 0; i < 10; ++i) {
    launch(d, s);
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s); // @read
    if (*h > 1) break;
  }
  for (int i = 0; i < 10; ++i) {
    launch(d, s);
    cudaStreamSynchronize(s); // @unread
    launch(d, s);
  }
}
)cpp");
  ASSERT_TRUE(F.S.ok());
  const CallExpr *Read = F.S.call("@read", "cudaStreamSynchronize");
  const CallExpr *Unread = F.S.call("@unread", "cudaStreamSynchronize");
  EXPECT_TRUE(hostReadsSyncedResult(*F.E, Read, F.E->enclosingLoop(Read)));
  EXPECT_FALSE(hostReadsSyncedResult(*F.E, Unread, F.E->enclosingLoop(Unread)));
}

} // namespace

TEST(Budget, HitsCountEveryTimeAndKeepDistinctLines) {
  Budget B;
  B.hit("sequence blocks", "f");
  B.hit("sequence blocks", "f");
  B.hit("sequence blocks", "g");
  EXPECT_EQ(B.HitCount, 3u);
  EXPECT_EQ(B.Hits, (std::vector<std::string>{"sequence blocks in f",
                                               "sequence blocks in g"}));
  for (unsigned I = 0; I < 2 * Budget::MaxHitLines; ++I)
    B.hit("callers", "h" + std::to_string(I));
  EXPECT_EQ(B.Hits.size(), Budget::MaxHitLines);
  EXPECT_EQ(B.HitCount, 3 + 2 * Budget::MaxHitLines);
}

// A summary says which fields its parameters reach: one entry per field, at
// most ParamFieldWrites of them, and a recursive call does not repeat them.
TEST(Budget, ParameterFieldWritesAreBoundedAndReported) {
  Fixture F(R"cpp(
    struct Spec { int a, b, c; };
    struct Writer {
      Spec s;
      void put(int x, int depth) {
        s.a = x; s.b = x; s.c = depth;
        if (depth > 0) { put(x, depth - 1); put(depth, x); }
      }
    };
    void use(int r) { Writer w; w.put(r, 3); }
  )cpp");
  ASSERT_TRUE(F.E);
  const auto *Put = dyn_cast_or_null<FunctionDecl>(F.S.decl("Writer::put"));
  ASSERT_TRUE(Put);
  F.E->limits().ParamFieldWrites = 2;
  F.E->summary(Put);
  EXPECT_EQ(F.E->limits().Hits,
            (std::vector<std::string>{"parameter-field writes in Writer::put"}));

  Fixture Unlimited(R"cpp(
    struct Spec { int a, b, c; };
    struct Writer {
      Spec s;
      void put(int x, int depth) {
        s.a = x; s.b = x; s.c = depth;
        if (depth > 0) { put(x, depth - 1); put(depth, x); }
      }
    };
  )cpp");
  ASSERT_TRUE(Unlimited.E);
  const auto *Put2 =
      dyn_cast_or_null<FunctionDecl>(Unlimited.S.decl("Writer::put"));
  ASSERT_TRUE(Put2);
  Unlimited.E->summary(Put2);
  EXPECT_TRUE(Unlimited.E->limits().Hits.empty());
}
