// Timeouts that are set, but to values that never fire: kNoTimeout, zero,
// and two days (through a constant and a local variable).
// run: none -- the point is that nothing ever times out
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include <chrono>

using namespace std::chrono_literals;

constexpr auto kTwoDays = std::chrono::hours(48);

void build(const c10::intrusive_ptr<c10d::Store> &store, int rank, int size) {
  auto gloo_opts = c10d::ProcessGroupGloo::Options::create(
      c10d::Store::kNoTimeout); // expect: distlint-missing-timeout
  gloo_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size,
                                                          gloo_opts);

  auto nccl_opts = c10d::ProcessGroupNCCL::Options::create();
  nccl_opts->timeout = std::chrono::milliseconds(0); // expect: distlint-missing-timeout
  auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size,
                                                          nccl_opts);

  auto slow_opts = c10d::ProcessGroupNCCL::Options::create();
  slow_opts->timeout = kTwoDays; // expect: distlint-missing-timeout
  const auto patience = 30h;
  auto &alias = *slow_opts;
  alias.timeout = patience; // expect: distlint-missing-timeout
  auto slow = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, size,
                                                          slow_opts);
  (void)gloo;
  (void)nccl;
  (void)slow;
}
