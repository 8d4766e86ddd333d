// The epoch-hook trainer with one slip: the hook captured the sampler by
// value (`[sampler = sampler_]`), so its set_epoch reseeds a private copy;
// the member sampler the loader copies every epoch keeps its first epoch
// and every epoch sees the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <vector>

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;

class Trainer {
public:
  Trainer(size_t world, size_t rank) : sampler_(64, world, rank) {
    on_epoch_begin_.push_back([](size_t epoch) {
      std::cout << "starting epoch " << epoch << std::endl;
    });
    on_epoch_begin_.push_back(
        [sampler = sampler_](size_t epoch) mutable { sampler.set_epoch(epoch); }); // expect-note: reseeds a copy of the sampler
  }

  void run(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch) { // expect-note: epoch loop
      for (auto &hook : on_epoch_begin_)
        hook(epoch);
      auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
          Dataset(torch::arange(64)), sampler_, torch::data::DataLoaderOptions(4));
      std::cout << "epoch " << epoch << " order:";
      int shown = 0;
      for (auto &batch : *loader)
        for (auto &example : batch)
          if (shown++ < 8)
            std::cout << " " << example.data.item<int64_t>();
      std::cout << std::endl;
    }
  }

private:
  Sampler sampler_;
  std::vector<std::function<void(size_t)>> on_epoch_begin_;
};

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  Trainer trainer(w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  trainer.run(3);
}
