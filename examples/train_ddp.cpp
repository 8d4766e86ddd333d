// Data-parallel training of a small classifier with LibTorch's c10d API:
// every rank holds a full model replica, trains on its share of the data
// (DistributedRandomSampler) and averages gradients with an all-reduce after
// each backward pass. Gloo on CPU; NCCL when LibTorch has it and CUDA is up.
//
// This version has the defects distlint is built to find (each marked with
// the finding it produces); train_ddp_fixed.cpp is the same trainer, fixed.
//
//   RANK=0 WORLD_SIZE=2 ./ddp_trainer --store /tmp/s & RANK=1 WORLD_SIZE=2 ./ddp_trainer --store /tmp/s
#include "trainer_common.h"

#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <memory>
#include <sstream>

using trainer::Config;

// The group that averages gradients every step.
static c10::intrusive_ptr<c10d::ProcessGroup>
make_training_group(const c10::intrusive_ptr<c10d::Store> &store,
                    const Config &config, const torch::Device &device) {
#ifdef USE_C10D_NCCL
  if (device.is_cuda()) {
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = config.timeout;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(
        store, config.rank, config.world_size, options);
  }
#endif
  (void)device;
  auto options = c10d::ProcessGroupGloo::Options::create(config.timeout);
  options->devices.push_back(trainer::loopback_device());
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, config.rank,
                                                     config.world_size, options);
}

// A second, CPU-side group for metrics, so logging never queues behind
// gradient traffic.
static c10::intrusive_ptr<c10d::ProcessGroup>
make_metrics_group(const c10::intrusive_ptr<c10d::Store> &store,
                   const Config &config) {
  auto prefixed = c10::make_intrusive<c10d::PrefixStore>("metrics", store);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(trainer::loopback_device());
  return c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, config.rank, config.world_size, options); // expect: distlint-missing-timeout(note)
}

static void average_gradients(c10d::ProcessGroup &group,
                              torch::nn::Module &model, int world_size) {
  for (auto &param : model.parameters()) {
    std::vector<at::Tensor> grads{param.grad()};
    group.allreduce(grads)->wait();
    param.grad().div_(world_size);
  }
}

static float mean_over_ranks(c10d::ProcessGroup &group, float value,
                             int world_size) {
  std::vector<at::Tensor> buffer{torch::full({1}, value)};
  group.allreduce(buffer)->wait();
  return buffer[0].item<float>() / world_size;
}

static void save_checkpoint(const trainer::Classifier &model,
                            const Config &config, int epoch) {
  const std::string path = config.checkpoint_dir + "/ddp-trainer-epoch" +
                           std::to_string(epoch) + ".pt";
  torch::save(model, path);
  std::cout << "saved " << path << std::endl;
}

int main(int argc, char **argv) {
  const Config config = trainer::parse_config(argc, argv);
  const torch::Device device = trainer::pick_device(config.rank);
  auto store = trainer::make_store(config);
  auto group = make_training_group(store, config, device);
  auto metrics = make_metrics_group(store, config);

  trainer::SyntheticDataset dataset(/*size=*/128);
  torch::data::samplers::DistributedRandomSampler sampler(
      dataset.size().value(), config.world_size, config.rank);
  auto loader = torch::data::make_data_loader( // expect: distlint-missing-set-epoch
      dataset.map(torch::data::transforms::Stack<>()), sampler,
      torch::data::DataLoaderOptions(config.batch_size));

  torch::manual_seed(0); // identical initial weights on every rank
  trainer::Classifier model;
  model->to(device);
  torch::optim::SGD optimizer(
      model->parameters(),
      torch::optim::SGDOptions(config.learning_rate).momentum(0.9));

  for (int epoch = 0; epoch < config.epochs; ++epoch) {
    sampler.set_epoch(epoch); // expect: distlint-missing-set-epoch
    model->train();
    float epoch_loss = 0.f;
    int steps = 0;
    for (auto &batch : *loader) {
      auto inputs = batch.data.to(device);
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model->forward(inputs), labels);
      loss.backward();
      average_gradients(*group, *model, config.world_size);
      optimizer.step();
      epoch_loss += loss.item<float>(); // expect: distlint-stray-device-sync
      ++steps;
    }

    const float mean_loss =
        mean_over_ranks(*metrics, epoch_loss / steps, config.world_size);
    if (config.rank == 0) {
      std::cout << "epoch " << epoch << " mean loss " << mean_loss << std::endl;
      save_checkpoint(model, config, epoch);
      // Keep the other ranks from racing ahead while the file is written.
      group->barrier()->wait(); // expect: distlint-rank-divergent-collective
    }
  }
  std::cout << "rank " << config.rank << " finished" << std::endl;
  return 0;
}
