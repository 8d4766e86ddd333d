// A trainer keeps its gradients in a member vector and writes each rank's
// own values into its elements before all-reducing them. Writing elements
// changes what the vector holds, not how many it holds: every rank reduces
// grads_.size() values.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

class Trainer {
public:
  explicit Trainer(int n) : grads_(n, 0.0f) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  }
  void step(int iteration) {
    for (size_t i = 0; i < grads_.size(); ++i)
      grads_[i] = float(rank_ + iteration) / float(i + 1);
    MPI_Allreduce(MPI_IN_PLACE, grads_.data(), (int)grads_.size(), MPI_FLOAT,
                  MPI_SUM, MPI_COMM_WORLD);
    if (!grads_.empty() && grads_.front() < 0)
      std::printf("negative gradient\n");
  }

private:
  std::vector<float> grads_;
  int rank_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Trainer trainer(1024);
  for (int it = 0; it < 5; ++it)
    trainer.step(it);
  MPI_Finalize();
  return 0;
}
