// Rank 0 reads the schedule and sends it with a warm-up step count as a third
// element; the other ranks build the tensor they receive into from a
// two-element list, as an older version of the message had it. The
// broadcast then carries three values on rank 0 and two on the others: its
// shapes differ, and Gloo fails the collective (or it hangs).
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

struct Schedule {
  int64_t epochs = 0;
  int64_t save_every = 1;
};

static Schedule parse_schedule(int argc, char **argv) {
  Schedule s;
  s.epochs = argc > 1 ? std::atoll(argv[1]) : 3;
  s.save_every = argc > 2 ? std::atoll(argv[2]) : 2;
  return s;
}

int main(int argc, char **argv) {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto pg = init_process_group(rank, world_size);

  Schedule sched;
  std::vector<at::Tensor> msg;
  if (rank == 0) {
    sched = parse_schedule(argc, argv);
    msg.push_back(torch::tensor({sched.epochs, sched.save_every, int64_t(10)},
                                torch::kInt64));
  } else {
    msg.push_back(torch::tensor({sched.epochs, sched.save_every}, torch::kInt64));
  }
  pg->broadcast(msg)->wait(); // expect: distlint-rank-divergent-collective
  const int64_t epochs = msg[0][0].item<int64_t>();
  const int64_t save_every = msg[0][1].item<int64_t>();

  auto weights = torch::zeros({8});
  for (int64_t epoch = 1; epoch <= epochs; ++epoch) {
    std::vector<at::Tensor> grads{torch::full({8}, double(rank + 1))};
    pg->allreduce(grads)->wait();
    weights.sub_(grads[0] * 0.01);
    if (epoch % save_every == 0) {
      if (rank == 0)
        std::cout << "epoch " << epoch << ": checkpoint\n";
      pg->barrier()->wait();
    }
  }
  return 0;
}
