// The working pattern: in the epoch loop, set_epoch(epoch) on the sampler,
// then build the loader from it. Each epoch prints a different order.
// run: gloo clean
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
} // namespace

int main() {
  const size_t rank = env_or("RANK", 0);
  const size_t world_size = env_or("WORLD_SIZE", 1);
  auto dataset = torch::data::datasets::TensorDataset(torch::arange(64));
  torch::data::samplers::DistributedRandomSampler sampler(
      dataset.size().value(), world_size, rank);
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    sampler.set_epoch(epoch);
    auto loader = torch::data::make_data_loader(
        dataset, sampler, torch::data::DataLoaderOptions().batch_size(4));
    std::cout << "epoch " << epoch << " order:";
    size_t shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
}
