// A trainer takes its stopping rule as a callback. The rule handed to it
// looks at this rank's own validation loss, which differs between ranks
// (each rank holds another shard), so one rank leaves the epoch loop while
// the others enter the next gradient all-reduce. The trainer's loop only
// sees a std::function; what decides is what the closure captured.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <functional>
#include <vector>

class Trainer {
public:
  using StopRule = std::function<bool(int)>;

  explicit Trainer(int epochs) : epochs_(epochs), grads_(32, 0.0) {}

  int fit(const StopRule &stop) {
    int ran = 0;
    for (int epoch = 0; epoch < epochs_; ++epoch) {
      for (std::size_t i = 0; i < grads_.size(); ++i)
        grads_[i] = 0.01 * double(i + epoch);
      std::vector<double> sum(grads_.size(), 0.0);
      MPI_Allreduce(grads_.data(), sum.data(), int(grads_.size()), MPI_DOUBLE, // expect: distlint-rank-divergent-collective
                    MPI_SUM, MPI_COMM_WORLD);
      ++ran;
      if (stop(epoch))
        break;
    }
    return ran;
  }

private:
  int epochs_;
  std::vector<double> grads_;
};

static double shard_val_loss(int rank, int epoch) {
  return 1.0 / double(epoch + 1) + 0.3 * rank;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Trainer trainer(8);
  int ran = trainer.fit(
      [&](int epoch) { return shard_val_loss(rank, epoch) < 0.5; });
  std::printf("rank %d ran %d epochs\n", rank, ran);
  MPI_Finalize();
  return 0;
}
