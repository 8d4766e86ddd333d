// A trainer runs the hooks registered through its add_hook() method after
// every step. Rank 0 alone registers a throughput hook, and that hook
// all-reduces the sample count: rank 0 issues one all-reduce per step the
// others never issue, and waits in it.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <vector>

class Trainer {
public:
  Trainer() { MPI_Comm_rank(MPI_COMM_WORLD, &rank_); }
  void add_hook(std::function<void(int)> hook) {
    hooks_.push_back(std::move(hook));
  }
  void step(int s) {
    double grad = 1.0 + rank_, sum = 0;
    MPI_Allreduce(&grad, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    samples_ += 32;
    for (auto &hook : hooks_)
      hook(s); // expect: distlint-rank-divergent-collective
  }
  int rank() const { return rank_; }
  long samples() const { return samples_; }

private:
  int rank_ = 0;
  long samples_ = 0;
  std::vector<std::function<void(int)>> hooks_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Trainer trainer;
  if (trainer.rank() == 0)
    trainer.add_hook([&](int s) {
      long local = trainer.samples(), total = 0;
      MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      std::printf("step %d: %ld samples\n", s, total);
    });
  for (int s = 0; s < 3; ++s)
    trainer.step(s);
  MPI_Finalize();
  return 0;
}
