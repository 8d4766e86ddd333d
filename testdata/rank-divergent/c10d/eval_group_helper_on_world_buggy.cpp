// Evaluation on a subgroup gone wrong: every rank but the last builds an
// evaluation group and tests `if (eval_pg)`, but the sum inside is handed the
// world group, so the evaluators enter an all-reduce on the world that the
// other ranks never issue (they are already in the broadcast).
// run: gloo buggy
// libtorch: 1.13
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <vector>

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

using PG = c10d::ProcessGroupGloo;

static void sum_into(PG &pg, at::Tensor t) {
  std::vector<at::Tensor> v{t};
  pg.allreduce(v)->wait();
}

static void broadcast_from_zero(PG &pg, at::Tensor t) {
  std::vector<at::Tensor> v{t};
  pg.broadcast(v)->wait();
}

class Trainer {
public:
  Trainer(c10::intrusive_ptr<PG> pg, int rank, int world)
      : pg_(std::move(pg)), rank_(rank), world_(world) {}

  double mean_loss(double local) {
    std::vector<at::Tensor> t{torch::tensor({local}, torch::kDouble)};
    pg_->allreduce(t)->wait();
    return t[0].item<double>() / world_;
  }

private:
  c10::intrusive_ptr<PG> pg_;
  int rank_;
  int world_;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto world = init_process_group(rank, world_size);
  Trainer trainer(world, rank, world_size);

  // The evaluation group: its members build it, the others hold null.
  const int evaluators = std::max(1, world_size - 1);
  c10::intrusive_ptr<PG> eval_pg;
  if (rank < evaluators) {
    const char *store_file = std::getenv("DISTLINT_STORE_FILE");
    auto store = c10::make_intrusive<c10d::FileStore>(
        std::string(store_file ? store_file : "/tmp/distlint-c10d-store") +
            ".eval",
        evaluators);
    auto options = PG::Options::create(std::chrono::milliseconds(3000));
    options->devices.push_back(PG::createDeviceForHostname("127.0.0.1"));
    eval_pg = c10::make_intrusive<PG>(store, rank, evaluators, options);
  }

  double best = 1e9;
  for (int step = 0; step < 4; ++step) {
    const double loss = trainer.mean_loss(1.0 / (step + 1) + 0.1 * rank);
    if (loss < 0.2)
      break;
    auto metric = torch::zeros({2}, torch::kDouble);
    if (eval_pg) {
      metric[0] = 1.0 / (step + 1 + rank);
      metric[1] = 1.0;
      sum_into(*world, metric); // expect: distlint-rank-divergent-collective
    }
    broadcast_from_zero(*world, metric);
    const double val = metric[0].item<double>() / metric[1].item<double>();
    if (val < best) {
      best = val;
      world->barrier()->wait();
    }
  }
  std::cout << "rank " << rank << ": best " << best << "\n";
  return 0;
}
