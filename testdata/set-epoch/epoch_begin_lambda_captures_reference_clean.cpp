// The epoch-begin callback captures the sampler by reference (`[&sampler]`):
// its set_epoch reseeds the sampler the loader then copies, so the order
// changes every epoch.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <functional>
#include <iostream>

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  size_t rank = r ? std::atoi(r) : 0, world = w ? std::atoi(w) : 1;
  Sampler sampler(64, world, rank);
  std::function<void(size_t)> begin_epoch = [&sampler](size_t epoch) {
    sampler.set_epoch(epoch);
  };
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    begin_epoch(epoch);
    auto loader = torch::data::make_data_loader(
        Dataset(torch::arange(64)), sampler, torch::data::DataLoaderOptions(4));
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
}
