// The same model gives the out-parameter one slot per sample of its own
// shard (`assign(shard_, ...)`), and the caller all-reduces size() doubles:
// ranks with larger shards send more than the others receive.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

class Model {
public:
  explicit Model(int dim) : w_(dim, 0.5) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    shard_ = 10 + 3 * rank_;
  }

  double perSampleLoss(std::vector<double> &losses) const {
    losses.assign(shard_, 0.0);
    double total = 0.0;
    for (int i = 0; i < shard_; ++i) {
      losses[i] = 0.01 * i * w_[i % w_.size()];
      total += losses[i];
    }
    return total;
  }

  double step() {
    std::vector<double> losses;
    perSampleLoss(losses);
    MPI_Allreduce(MPI_IN_PLACE, losses.data(), static_cast<int>(losses.size()), // expect: distlint-rank-divergent-collective
                  MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return losses[0];
  }

private:
  std::vector<double> w_;
  int rank_ = 0;
  int shard_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Model m(8);
  double l = 0.0;
  for (int step = 0; step < 3; ++step)
    l += m.step();
  std::printf("%g\n", l);
  MPI_Finalize();
  return 0;
}
