// A trainer runs the hooks registered through its add_hook() method after
// every step. Every rank registers the hook that all-reduces the sample
// count; rank 0 alone registers one more that only prints: every rank
// issues the same all-reduces.
// run: mpi clean
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
      hook(s);
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
  trainer.add_hook([&](int s) {
    long local = trainer.samples(), total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (trainer.rank() == 0)
      std::printf("step %d: %ld samples\n", s, total);
  });
  if (trainer.rank() == 0)
    trainer.add_hook([](int s) { std::printf("step %d done\n", s); });
  for (int s = 0; s < 3; ++s)
    trainer.step(s);
  MPI_Finalize();
  return 0;
}
