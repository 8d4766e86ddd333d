// A trainer class in the production style: the sampler and the loader are
// members, setup() builds the loader once with make_data_loader(std::move(ds),
// sampler_, ...) (which copies the sampler), train_epoch() iterates it and
// run() owns the epoch loop. set_epoch goes to the member sampler, which the
// loader never looks at again: every epoch prints the same order.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

namespace train {

using Dataset = torch::data::datasets::TensorDataset;
using Sampler = torch::data::samplers::DistributedRandomSampler;
using Loader = torch::data::StatelessDataLoader<Dataset, Sampler>;

class Trainer {
public:
  Trainer(size_t world, size_t rank) : sampler_(64, world, rank) {}

  void setup() {
    Dataset ds(torch::arange(64));
    loader_ = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
        std::move(ds), sampler_, torch::data::DataLoaderOptions(4));
  }

  void run(size_t epochs) {
    for (size_t epoch = 0; epoch < epochs; ++epoch) { // expect-note: epoch loop
      sampler_.set_epoch(epoch); // expect: distlint-missing-set-epoch
      train_epoch(epoch);
    }
  }

private:
  void train_epoch(size_t epoch) {
    std::cout << "epoch " << epoch << " order:";
    int shown = 0;
    for (auto &batch : *loader_)
      for (auto &example : batch)
        if (shown++ < 8)
          std::cout << " " << example.data.item<int64_t>();
    std::cout << std::endl;
  }

  Sampler sampler_;
  std::unique_ptr<Loader> loader_;
};

} // namespace train

int main() {
  const char *r = std::getenv("RANK"), *w = std::getenv("WORLD_SIZE");
  train::Trainer trainer(w ? std::atoi(w) : 1, r ? std::atoi(r) : 0);
  trainer.setup();
  trainer.run(3);
}
