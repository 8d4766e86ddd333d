// A helper is given the rank and registers a metrics hook on rank 0 only
// (it returns early on the others). The trainer runs each registered hook
// through the callable part of its (name, hook) entry after every step:
// rank 0 issues an all-reduce per step the other ranks never issue.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using Hook = std::function<void(int)>;

struct Trainer {
  std::vector<std::pair<std::string, Hook>> hooks;
  void add(std::string name, Hook hook) {
    hooks.emplace_back(std::move(name), std::move(hook));
  }
  void step(int s) {
    double grad = 1.0 + s, sum = 0;
    MPI_Allreduce(&grad, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (auto &entry : hooks)
      entry.second(s); // expect: distlint-rank-divergent-collective
  }
};

static void register_metrics(int rank, Trainer &trainer) {
  if (rank != 0)
    return;
  trainer.add("throughput", [](int s) {
    long local = 32, total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    std::printf("step %d: %ld samples\n", s, total);
  });
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Trainer trainer;
  register_metrics(rank, trainer);
  for (int s = 0; s < 3; ++s)
    trainer.step(s);
  MPI_Finalize();
  return 0;
}
