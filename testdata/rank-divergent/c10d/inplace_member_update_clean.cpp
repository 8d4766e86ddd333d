// A model keeps its weights in a tensor member and updates them in place
// with a step computed from this rank's own shard (`w_ -= lr * g`): in-place
// arithmetic writes values into the tensor it has, so its shape stays the
// one the constructor gave every rank, and the final all-reduce of the
// weights (through an accessor) matches.
// run: gloo clean
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

  // One step on this rank's samples only (local SGD): how many there are
  // and what they hold is this rank's own.
  void local_step(const std::vector<float> &samples) {
    if (samples.empty())
      return;
    double mean = 0;
    for (float s : samples)
      mean += s;
    mean /= static_cast<double>(samples.size());
    w_ -= 0.1 * (w_ - mean);
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
    std::vector<float> shard(static_cast<size_t>(rank + round), 1.0f * rank);
    model.local_step(shard);
  }
  std::vector<at::Tensor> averaged{model.weights().clone()};
  pg->allreduce(averaged)->wait();
  std::cout << "rank " << rank << " averaged "
            << averaged[0].sum().item<float>() / world_size << "\n";
  return 0;
}
