// set_epoch is called every epoch before the loader is built, but inside the
// `if (rank == 0)` block that also prints progress: rank 0 reshuffles each
// epoch, every other rank keeps epoch 0 and sees the same order each epoch.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  size_t rank = r ? std::atoi(r) : 0, world = w ? std::atoi(w) : 1;
  Sampler sampler(64, world, rank);
  for (size_t epoch = 0; epoch < 3; ++epoch) {
    if (rank == 0) { // expect-note: the branch that depends on the rank
      std::cout << "starting epoch " << epoch << std::endl;
      sampler.set_epoch(epoch); // expect: distlint-missing-set-epoch
    }
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
