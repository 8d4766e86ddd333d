// Each rank trains on its own contiguous shard of a 9-sample dataset with a
// data loader over the shard. The shard is not padded: with 2 ranks, rank 0
// gets 5 samples and rank 1 gets 4, so rank 0 runs one more step and waits
// in the gradient all-reduce of its last batch. The loop over the loader is
// a loop over rank-local data whose length differs by rank.
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

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

class ShardDataset : public torch::data::datasets::Dataset<ShardDataset> {
public:
  ShardDataset(at::Tensor inputs, at::Tensor targets)
      : inputs_(std::move(inputs)), targets_(std::move(targets)) {}
  torch::data::Example<> get(size_t index) override {
    return {inputs_[index], targets_[index]};
  }
  torch::optional<size_t> size() const override { return inputs_.size(0); }

private:
  at::Tensor inputs_, targets_;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  const int64_t total = 9;
  torch::manual_seed(0);
  auto all_inputs = torch::randn({total, 4});
  auto all_targets = all_inputs.sum(1, /*keepdim=*/true);

  // Contiguous shards; the first total % world_size ranks get one extra.
  const int64_t base = total / world_size, extra = total % world_size;
  const int64_t begin = rank * base + std::min<int64_t>(rank, extra);
  const int64_t length = base + (rank < extra ? 1 : 0);
  auto dataset = ShardDataset(all_inputs.narrow(0, begin, length),
                              all_targets.narrow(0, begin, length))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), /*batch_size=*/1);

  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  int steps = 0;
  for (auto &batch : *loader) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(batch.data), batch.target);
    loss.backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait(); // expect: distlint-rank-divergent-collective
      param.grad().div_(world_size);
    }
    optimizer.step();
    ++steps;
  }
  std::cout << "rank " << rank << " ran " << steps << " steps\n";
  return 0;
}
