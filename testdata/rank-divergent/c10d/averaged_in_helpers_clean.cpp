// Gradients and the loss are averaged in place inside helpers (two calls
// deep). After the calls they hold the same values on every rank, and so
// does everything read from them: the divergence check that stops training
// is taken alike everywhere.
// run: gloo clean
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cmath>
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

template <typename PG>
static void all_reduce_mean(PG &pg, std::vector<at::Tensor> &tensors,
                            int world_size) {
  pg->allreduce(tensors)->wait();
  for (auto &t : tensors)
    t.div_(world_size);
}

template <typename PG>
static void average_loss(PG &pg, at::Tensor &loss, int world_size) {
  std::vector<at::Tensor> one{loss};
  all_reduce_mean(pg, one, world_size);
}

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  torch::manual_seed(rank);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.1);
  int step = 0;
  for (; step < 10; ++step) {
    auto inputs = torch::randn({8, 4});
    optimizer.zero_grad();
    auto loss = model->forward(inputs).pow(2).mean();
    loss.backward();
    at::Tensor reported = loss.detach().clone();
    average_loss(pg, reported, world_size);
    const float mean_loss = reported.item<float>();
    if (mean_loss < 0.05f)
      break;
    // One tensor per call: Gloo's allreduce needs equal shapes in a call.
    for (auto &param : model->parameters()) {
      std::vector<at::Tensor> grad{param.grad()};
      all_reduce_mean(pg, grad, world_size);
    }
    optimizer.step();
  }
  std::cout << "rank " << rank << " stopped at step " << step << "\n";
  return 0;
}
