// Pieces both example trainers share: command line, rendezvous store,
// synthetic dataset and model. Nothing in here issues a collective.
#pragma once

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace trainer {

struct Config {
  int rank = 0;
  int world_size = 1;
  int epochs = 3;
  int64_t batch_size = 8;
  double learning_rate = 0.05;
  std::chrono::milliseconds timeout{60 * 1000};
  std::string store_path = "/tmp/ddp-trainer-store";
  std::string checkpoint_dir = "/tmp";
};

inline int env_int(const char *name, int fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

// torchrun-style environment (RANK, WORLD_SIZE, MASTER_ADDR/MASTER_PORT)
// plus a few flags:
//   --epochs N  --batch-size N  --lr X  --timeout-ms N  --store PATH
//   --checkpoint-dir DIR
inline Config parse_config(int argc, char **argv) {
  Config config;
  config.rank = env_int("RANK", 0);
  config.world_size = env_int("WORLD_SIZE", 1);
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--epochs")
      config.epochs = std::stoi(value);
    else if (flag == "--batch-size")
      config.batch_size = std::stoll(value);
    else if (flag == "--lr")
      config.learning_rate = std::stod(value);
    else if (flag == "--timeout-ms")
      config.timeout = std::chrono::milliseconds(std::stoll(value));
    else if (flag == "--store")
      config.store_path = value;
    else if (flag == "--checkpoint-dir")
      config.checkpoint_dir = value;
    else
      throw std::invalid_argument("unknown flag " + flag);
  }
  return config;
}

// TCPStore on MASTER_ADDR:MASTER_PORT when the launcher sets them, else a
// FileStore that all local ranks share.
inline c10::intrusive_ptr<c10d::Store> make_store(const Config &config) {
  const char *master_addr = std::getenv("MASTER_ADDR");
  const int master_port = env_int("MASTER_PORT", 0);
  if (master_addr && master_port > 0) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<uint16_t>(master_port);
    options.isServer = config.rank == 0;
    options.numWorkers = config.world_size;
    return c10::make_intrusive<c10d::TCPStore>(master_addr, options);
  }
  return c10::make_intrusive<c10d::FileStore>(config.store_path,
                                              config.world_size);
}

// Gloo over loopback: the example runs all ranks on one machine.
inline std::shared_ptr<::gloo::transport::Device> loopback_device() {
  return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
}

// A synthetic 4-class classification problem: the class of a sample is the
// quadrant of its first two features. Deterministic, the same on every rank.
class SyntheticDataset : public torch::data::datasets::Dataset<SyntheticDataset> {
public:
  explicit SyntheticDataset(int64_t size) {
    torch::manual_seed(1234);
    features_ = torch::randn({size, 8});
    labels_ = (features_.select(1, 0) > 0).to(torch::kLong) * 2 +
              (features_.select(1, 1) > 0).to(torch::kLong);
  }
  torch::data::Example<> get(size_t index) override {
    return {features_[index], labels_[index]};
  }
  torch::optional<size_t> size() const override { return features_.size(0); }

private:
  at::Tensor features_, labels_;
};

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl()
      : hidden(register_module("hidden", torch::nn::Linear(8, 32))),
        output(register_module("output", torch::nn::Linear(32, 4))) {}
  at::Tensor forward(const at::Tensor &x) {
    return output(torch::relu(hidden(x)));
  }
  torch::nn::Linear hidden, output;
};
TORCH_MODULE(Classifier);

inline torch::Device pick_device(int rank) {
  if (torch::cuda::is_available())
    return torch::Device(torch::kCUDA,
                         static_cast<c10::DeviceIndex>(
                             rank % static_cast<int>(torch::cuda::device_count())));
  return torch::Device(torch::kCPU);
}

} // namespace trainer
