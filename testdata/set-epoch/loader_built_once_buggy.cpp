// The most common shape: sampler and loader built once before the epoch
// loop, no set_epoch anywhere. DistributedRandomSampler::reset() seeds its
// shuffle with std::mt19937(epoch_), epoch_ stays 0, so every epoch prints
// the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

namespace {
size_t env_or(const char *name, size_t fallback) {
  const char *value = std::getenv(name);
  return value ? std::strtoul(value, nullptr, 10) : fallback;
}

void print_order(size_t epoch, const std::vector<int64_t> &order) {
  std::cout << "epoch " << epoch << " order:";
  for (size_t i = 0; i < order.size() && i < 8; ++i)
    std::cout << " " << order[i];
  std::cout << std::endl;
}
} // namespace

int main() {
  const size_t rank = env_or("RANK", 0);
  const size_t world_size = env_or("WORLD_SIZE", 1);
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(64));
  torch::data::samplers::DistributedRandomSampler sampler(
      dataset.size().value(), world_size, rank);
  auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
      dataset, sampler, torch::data::DataLoaderOptions().batch_size(4));
  for (size_t epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    std::vector<int64_t> order;
    for (auto &batch : *loader)
      for (auto &example : batch)
        order.push_back(example.data.item<int64_t>());
    print_order(epoch, order);
  }
}
