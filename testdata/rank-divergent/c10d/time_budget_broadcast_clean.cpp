// The time budget fixed: rank 0 alone looks at its clock (rank-local data),
// and its decision is broadcast before anybody acts on it, so every rank
// leaves the loop at the same step. The broadcast result is uniform.
// run: gloo clean
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

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

static at::Tensor read_batch(int rank) {
  std::this_thread::sleep_for(std::chrono::milliseconds(rank == 1 ? 120 : 60));
  return torch::randn({16, 8});
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::nn::Linear model(8, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  const auto budget = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  c10d::BroadcastOptions from_zero;
  from_zero.rootRank = 0;
  int step = 0;
  for (; step < 8; ++step) {
    at::Tensor out_of_time = torch::zeros({1}, torch::kInt);
    if (rank == 0 && std::chrono::steady_clock::now() - start > budget)
      out_of_time.fill_(1);
    std::vector<at::Tensor> decision{out_of_time};
    pg->broadcast(decision, from_zero)->wait();
    if (out_of_time.item<int>() != 0)
      break;

    auto inputs = read_batch(rank);
    optimizer.zero_grad();
    torch::mse_loss(model->forward(inputs), inputs.sum(1, true)).backward();
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grads{param.grad()};
      pg->allreduce(grads)->wait();
      param.grad().div_(world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " stopped at step " << step << "\n";
  return 0;
}
