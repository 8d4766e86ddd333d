// The programmer knows about set_epoch and calls it every epoch, but on the
// original sampler after make_data_loader took its copy: the loader's copy
// keeps epoch 0 and the order never changes.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

using torch::data::samplers::DistributedRandomSampler;

int main() {
  const char *rank_env = std::getenv("RANK");
  const char *world_env = std::getenv("WORLD_SIZE");
  const size_t rank = rank_env ? std::atoi(rank_env) : 0;
  const size_t world = world_env ? std::atoi(world_env) : 1;

  auto data = torch::data::datasets::TensorDataset(torch::arange(48));
  DistributedRandomSampler sampler(48, world, rank);
  auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
      std::move(data), sampler, torch::data::DataLoaderOptions(6));

  for (int epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    sampler.set_epoch(epoch); // expect: distlint-missing-set-epoch
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }
}
