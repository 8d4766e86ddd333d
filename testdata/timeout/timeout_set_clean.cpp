// Every way the timeout gets set: a factory argument, member assignment
// through the intrusive_ptr, through a reference and a raw pointer to the
// options, a helper taking the options by reference, a factory helper that
// returns configured options, options handed in by a caller that set them,
// and both branches of an if. Stores with sane timeouts.
// run: none -- nothing to prove by running: every group has a timeout
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdlib>

using c10d::ProcessGroupGloo;
using c10d::ProcessGroupNCCL;
using StorePtr = c10::intrusive_ptr<c10d::Store>;

static void apply_timeout(ProcessGroupNCCL::Options &o) {
  o.timeout = std::chrono::minutes(5);
}

static c10::intrusive_ptr<ProcessGroupNCCL::Options> configured_options() {
  auto o = ProcessGroupNCCL::Options::create();
  o->timeout = std::chrono::seconds(120);
  return o;
}

static c10::intrusive_ptr<ProcessGroupGloo>
gloo_with(const StorePtr &store, int rank, int size,
          c10::intrusive_ptr<ProcessGroupGloo::Options> opts) {
  return c10::make_intrusive<ProcessGroupGloo>(store, rank, size, opts);
}

void build(const StorePtr &store, int rank, int size, bool fast_network) {
  auto a = ProcessGroupGloo::Options::create(std::chrono::seconds(30));
  a->devices.push_back(ProcessGroupGloo::createDefaultDevice());
  ProcessGroupGloo g1(store, rank, size, a);

  auto b = ProcessGroupNCCL::Options::create();
  b->timeout = std::chrono::seconds(600);
  auto n1 = c10::make_intrusive<ProcessGroupNCCL>(store, rank, size, b);

  auto c = ProcessGroupNCCL::Options::create();
  auto &c_ref = *c;
  c_ref.timeout = std::chrono::minutes(10);
  auto n2 = c10::make_intrusive<ProcessGroupNCCL>(store, rank, size, c);

  auto d = ProcessGroupNCCL::Options::create();
  ProcessGroupNCCL::Options *raw = d.get();
  raw->timeout = std::chrono::minutes(2);
  auto n3 = std::make_shared<ProcessGroupNCCL>(store, rank, size, d);

  auto e = ProcessGroupNCCL::Options::create();
  apply_timeout(*e);
  auto n4 = c10::make_intrusive<ProcessGroupNCCL>(store, rank, size, e);

  auto n5 = c10::make_intrusive<ProcessGroupNCCL>(store, rank, size,
                                                  configured_options());

  auto f = ProcessGroupGloo::Options::create();
  if (fast_network)
    f->timeout = std::chrono::seconds(60);
  else
    f->timeout = std::chrono::seconds(300);
  auto g2 = gloo_with(store, rank, size, f);

  auto h = c10::make_intrusive<ProcessGroupGloo::Options>(std::chrono::minutes(3));
  auto g3 = c10::make_intrusive<ProcessGroupGloo>(store, rank, size, h);

  c10d::TCPStoreOptions store_opts;
  store_opts.timeout = std::chrono::minutes(5);
  auto tcp = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", store_opts);
  tcp->setTimeout(std::chrono::seconds(300));
  auto file = c10::make_intrusive<c10d::FileStore>("/tmp/rdzv", size);
  (void)n1, (void)n2, (void)n3, (void)n4, (void)n5, (void)g2, (void)g3;
}
