// An epoch-begin callback stored in a std::function reseeds the sampler, but
// it captured the sampler by value (`[sampler]`): set_epoch reaches the
// lambda's own copy, and the sampler the loader copies every epoch stays at
// its first epoch, so every epoch sees the same order.
// run: gloo buggy
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
  std::function<void(size_t)> begin_epoch = [sampler](size_t epoch) mutable {
    sampler.set_epoch(epoch); // expect-note: reseeds a copy of the sampler
  };
  for (size_t epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    begin_epoch(epoch);
    auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
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
