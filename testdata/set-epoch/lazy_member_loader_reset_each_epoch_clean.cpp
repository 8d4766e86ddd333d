// Clean trap: the loader is built lazily (`if (!loader_) loader_ =
// make_data_loader(...)`), but dropped at the end of every epoch
// (`loader_.reset()`), so each epoch builds a new one from the sampler that
// set_epoch just reseeded: the order changes every epoch.
// run: gloo clean
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
    for (size_t epoch = 0; epoch < epochs; ++epoch) {
      sampler_.set_epoch(epoch);
      if (!loader_)
        loader_ = torch::data::make_data_loader(
            Dataset(torch::arange(64)), sampler_, torch::data::DataLoaderOptions(4));
      std::cout << "epoch " << epoch << " order:";
      int shown = 0;
      for (auto &batch : *loader_)
        for (auto &example : batch)
          if (shown++ < 8)
            std::cout << " " << example.data.item<int64_t>();
      std::cout << std::endl;
      loader_.reset();
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
