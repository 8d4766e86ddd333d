// Rank-specific preparation followed by the same collectives on every rank:
// rank 0 initialises the weights "from a checkpoint", the others start from
// zeros, and then every rank broadcasts each parameter from root 0. The
// second half issues the broadcast inside both arms of a rank branch, which
// is the same sequence on every rank. Nothing here hangs.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>

static c10::intrusive_ptr<c10d::ProcessGroupGloo>
init_process_group(int rank, int world_size) {
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size,
                                                     options);
}

static void broadcast_parameters(c10d::ProcessGroupGloo &pg,
                                 torch::nn::Module &model) {
  c10d::BroadcastOptions from_root;
  from_root.rootRank = 0;
  torch::NoGradGuard no_grad;
  for (auto &param : model.parameters()) {
    std::vector<at::Tensor> tensors{param.data()};
    pg.broadcast(tensors, from_root)->wait();
  }
}

static void load_reference_weights(torch::nn::Module &model) {
  torch::NoGradGuard no_grad;
  for (auto &param : model.parameters())
    param.copy_(torch::linspace(-1, 1, param.numel()).view(param.sizes()));
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::nn::Linear model(8, 4);
  if (rank == 0) {
    load_reference_weights(*model);
  } else {
    torch::NoGradGuard no_grad;
    for (auto &param : model->parameters())
      param.zero_();
  }
  broadcast_parameters(*pg, *model);

  // Same collective in both arms: rank 0 announces the step count it read
  // from the checkpoint, the others receive it.
  at::Tensor resume_step = torch::zeros({1}, torch::kLong);
  std::vector<at::Tensor> step_buffer{resume_step};
  c10d::BroadcastOptions from_root;
  if (rank == 0) {
    resume_step.fill_(42);
    pg->broadcast(step_buffer, from_root)->wait();
  } else {
    pg->broadcast(step_buffer, from_root)->wait();
  }

  const double checksum = model->weight.sum().item<double>();
  std::cout << "rank " << rank << " weight checksum " << checksum
            << " resume step " << resume_step.item<int64_t>() << "\n";
  return 0;
}
