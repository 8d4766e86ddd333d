// Teacher/student distillation in pairs of ranks: ranks 2k and 2k+1 build a
// two-rank process group kept in a struct field (PairInfo::group), and a
// rank without a partner builds none. The helpers reach the group through
// a `const PairInfo &` parameter and its smart pointer (`p.group->
// broadcast(...)`): the teacher and the student of a pair broadcast on it;
// the solo rank (pair_rank -1) never does, and it is not a member. Every
// rank then joins the world all-reduce.
// run: gloo clean ranks=3
// libtorch: 1.13, 2.x
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

using GroupPtr = c10::intrusive_ptr<c10d::ProcessGroupGloo>;

static c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> gloo_options() {
  const char *timeout_ms = std::getenv("DISTLINT_TEST_TIMEOUT_MS");
  auto options = c10d::ProcessGroupGloo::Options::create(
      std::chrono::milliseconds(timeout_ms ? std::atoi(timeout_ms) : 3000));
  options->devices.push_back(
      c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  return options;
}

struct PairInfo {
  int pair_rank = -1; // 0: teacher, 1: student
  GroupPtr group;     // null on the rank without a partner
};

struct Setup {
  int rank = 0;
  int world = 1;
  GroupPtr world_pg;
  PairInfo pair;
};

static Setup init() {
  Setup s;
  s.rank = std::atoi(std::getenv("RANK"));
  s.world = std::atoi(std::getenv("WORLD_SIZE"));
  const char *store_file = std::getenv("DISTLINT_STORE_FILE");
  auto store = c10::make_intrusive<c10d::FileStore>(
      store_file ? store_file : "/tmp/distlint-c10d-store", s.world);
  s.world_pg = c10::make_intrusive<c10d::ProcessGroupGloo>(
      c10::make_intrusive<c10d::PrefixStore>("world", store), s.rank, s.world,
      gloo_options());
  const int pair_id = s.rank / 2;
  if (pair_id * 2 + 1 < s.world) {
    s.pair.pair_rank = s.rank % 2;
    auto pair_store = c10::make_intrusive<c10d::PrefixStore>(
        "pair" + std::to_string(pair_id), store);
    s.pair.group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        pair_store, s.pair.pair_rank, 2, gloo_options());
  }
  return s;
}

static void teach(const PairInfo &p, const torch::Tensor &logits) {
  std::vector<at::Tensor> soft{torch::softmax(logits, 1).contiguous()};
  p.group->broadcast(soft)->wait();
}

static torch::Tensor learn(const PairInfo &p) {
  std::vector<at::Tensor> soft{torch::empty({8, 4})};
  p.group->broadcast(soft)->wait();
  return soft[0];
}

int main() {
  Setup s = init();
  double score = 0;
  for (int step = 0; step < 3; ++step) {
    torch::Tensor logits = torch::randn({8, 4});
    if (s.pair.pair_rank < 0)
      score += logits.sum().item<double>(); // trains alone
    else if (s.pair.pair_rank == 0)
      teach(s.pair, logits);
    else
      score += learn(s.pair).sum().item<double>();
  }
  std::vector<at::Tensor> total{torch::full({1}, score)};
  s.world_pg->allreduce(total)->wait();
  std::cout << "rank " << s.rank << " total " << total[0].item<double>()
            << "\n";
  return 0;
}
