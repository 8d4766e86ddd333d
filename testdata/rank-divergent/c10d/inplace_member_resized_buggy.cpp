// The same local-SGD model, but a step that sees more samples than the
// model has features widens the weights to the sample count (`w_ =
// torch::cat(...)`): an assignment, not in-place arithmetic, so the shape
// now depends on this rank's shard and the all-reduce of the weights gets
// tensors of different sizes (Gloo fails the job).
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

static c10::intrusive_ptr<c10d::ProcessGroupGloo>
init_process_group(int rank, int world_size) {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
}

class LocalModel {
public:
  explicit LocalModel(int64_t features) : w_(torch::zeros({features})) {}

  void local_step(const std::vector<float> &samples) {
    if (samples.empty())
      return;
    const int64_t n = static_cast<int64_t>(samples.size());
    if (n > w_.size(0))
      w_ = torch::cat({w_, torch::zeros({n - w_.size(0)})});
    w_ -= 0.1 * w_;
  }

  const torch::Tensor &weights() const { return w_; }

private:
  torch::Tensor w_;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  LocalModel model(4);
  for (int round = 0; round < 3; ++round) {
    std::vector<float> shard(static_cast<size_t>(4 + rank + round), 1.0f);
    model.local_step(shard);
  }
  std::vector<at::Tensor> averaged{model.weights().clone()};
  pg->allreduce(averaged)->wait(); // expect: distlint-rank-divergent-collective
  std::cout << "rank " << rank << " averaged "
            << averaged[0].sum().item<float>() / world_size << "\n";
  return 0;
}
