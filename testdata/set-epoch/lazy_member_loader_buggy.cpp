// A trainer that builds its loader lazily, the first time an epoch needs it
// (`if (!loader_) loader_ = make_data_loader(...)`), and keeps it. set_epoch
// on the member sampler each epoch never reaches the copy the loader made in
// the first epoch, so every epoch sees the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;
using Loader = torch::data::StatelessDataLoader<Dataset, Sampler>;

class Trainer {
public:
  Trainer(size_t world, size_t rank) : sampler_(64, world, rank) {}

  void run(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch) { // expect-note: epoch loop
      sampler_.set_epoch(epoch); // expect: distlint-missing-set-epoch
      if (!loader_)
        loader_ = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
            Dataset(torch::arange(64)), sampler_, torch::data::DataLoaderOptions(4));
      std::cout << "epoch " << epoch << " order:";
      int shown = 0;
      for (auto &batch : *loader_)
        for (auto &example : batch)
          if (shown++ < 8)
            std::cout << " " << example.data.item<int64_t>();
      std::cout << std::endl;
    }
  }

private:
  Sampler sampler_;
  std::unique_ptr<Loader> loader_;
};

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  Trainer trainer(w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  trainer.run(3);
}
