// Free functions across a header-like section and a template trainer: the
// constructor builds a shared_ptr loader from a sampler member, the epoch
// loop lives in main and calls fit_epoch(), nobody calls set_epoch.
// run: gloo buggy
// libtorch: 1.13, 2.x
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>

// ---- "trainer.h" ---------------------------------------------------------
template <typename SamplerT> struct EpochRunner {
  using Dataset = torch::data::datasets::TensorDataset;
  using Loader = torch::data::StatelessDataLoader<Dataset, SamplerT>;

  EpochRunner(Dataset ds, SamplerT sampler)
      : sampler(std::move(sampler)),
        loader(torch::data::make_data_loader( // expect: distlint-missing-set-epoch
            std::move(ds), this->sampler, torch::data::DataLoaderOptions(4))) {}

  void fit_epoch(size_t epoch);

  SamplerT sampler;
  std::shared_ptr<Loader> loader;
};

size_t env_size(const char *name, size_t fallback);

// ---- "trainer.cpp" -------------------------------------------------------
template <typename SamplerT> void EpochRunner<SamplerT>::fit_epoch(size_t epoch) {
  std::cout << "epoch " << epoch << " order:";
  int shown = 0;
  for (auto it = loader->begin(); it != loader->end(); ++it)
    for (auto &example : *it)
      if (shown++ < 8)
        std::cout << " " << example.data.template item<int64_t>();
  std::cout << std::endl;
}

size_t env_size(const char *name, size_t fallback) {
  const char *v = std::getenv(name);
  return v ? std::strtoul(v, nullptr, 10) : fallback;
}

int main() {
  using Sampler = torch::data::samplers::DistributedRandomSampler;
  EpochRunner<Sampler> runner(
      torch::data::datasets::TensorDataset(torch::arange(64)),
      Sampler(64, env_size("WORLD_SIZE", 1), env_size("RANK", 0)));
  for (size_t epoch = 0; epoch < 3; ++epoch) // expect-note: epoch loop
    runner.fit_epoch(epoch);
}
