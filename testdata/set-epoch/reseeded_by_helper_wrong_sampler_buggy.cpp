// The epoch loop calls the reseeding helper before the loader is rebuilt,
// but hands it the validation sampler: the training sampler the loader
// copies never gets set_epoch, so every epoch sees the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;

static void begin_epoch(Sampler &sampler, size_t epoch, bool verbose) {
  if (verbose)
    std::cout << "starting epoch " << epoch << std::endl;
  sampler.set_epoch(epoch);
}

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  size_t rank = r ? std::atoi(r) : 0, world = w ? std::atoi(w) : 1;
  Sampler sampler(64, world, rank), validation(16, world, rank);
  for (size_t epoch = 0; epoch < 3; ++epoch) { // expect-note: epoch loop
    begin_epoch(validation, epoch, rank == 0);
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
