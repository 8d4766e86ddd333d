// The same sharded loader with the shards padded to equal length (the usual
// fix, what DistributedSampler does with duplicates): every rank gets
// ceil(total / world_size) samples, wrapping around to the front of the
// dataset, so the loops over the loaders have the same trip count on every
// rank even though their contents differ.
// run: gloo clean
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

  // Padded shards: sample i of rank r is (r * per_rank + i) % total.
  const int64_t per_rank = (total + world_size - 1) / world_size;
  auto indices = (torch::arange(per_rank, torch::kLong) + rank * per_rank)
                     .remainder(total);
  auto dataset = ShardDataset(all_inputs.index_select(0, indices),
                              all_targets.index_select(0, indices))
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
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
    ++steps;
  }
  std::cout << "rank " << rank << " ran " << steps << " steps\n";
  return 0;
}
