// A model object fills an out-parameter gradient: it gives the buffer the
// model's length, then accumulates over its own shard, whose size depends
// on the rank. Only the elements differ between ranks; every rank
// all-reduces the same number of doubles.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

class Model {
public:
  explicit Model(int dim) : w_(dim, 0.5) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    shard_ = 10 + 3 * rank_;
  }

  double localGradient(std::vector<double> &g) const {
    g.assign(w_.size(), 0.0);
    double loss = 0.0;
    for (int i = 0; i < shard_; ++i)
      for (size_t d = 0; d < w_.size(); ++d) {
        g[d] += 0.01 * (i + d) * w_[d];
        loss += g[d];
      }
    return loss;
  }

  void step() {
    std::vector<double> g;
    localGradient(g);
    MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()),
                  MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (size_t d = 0; d < w_.size(); ++d)
      w_[d] -= 0.1 * g[d];
  }

  double first() const { return w_[0]; }

private:
  std::vector<double> w_;
  int rank_ = 0;
  int shard_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Model m(8);
  for (int step = 0; step < 3; ++step)
    m.step();
  std::printf("%g\n", m.first());
  MPI_Finalize();
  return 0;
}
