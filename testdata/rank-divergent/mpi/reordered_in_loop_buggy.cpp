// A training loop whose rank-0 step saves a checkpoint (barrier) before the
// gradient all-reduce while the others reduce first.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

#define SUM_INTO(v, out) MPI_Allreduce(&(v), &(out), 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD) // expect-note: expanded from macro 'SUM_INTO'

class Trainer {
public:
  Trainer() { MPI_Comm_rank(MPI_COMM_WORLD, &rank_); } // expect-note: rank comes from here
  void step(int iter) {
    float grad = 0.5f * (rank_ + iter), sum = 0;
    if (rank_ == 0) {
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
      SUM_INTO(grad, sum);
    } else {
      SUM_INTO(grad, sum); // expect-note: rank class B issues 'MPI_Allreduce' here instead
      MPI_Barrier(MPI_COMM_WORLD);
    }
    weight_ -= 0.1f * sum;
  }
  float weight() const { return weight_; }

private:
  int rank_ = 0;
  float weight_ = 1.0f;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Trainer t;
  for (int iter = 0; iter < 3; ++iter)
    t.step(iter);
  std::printf("rank %d weight %g\n", rank, t.weight());
  MPI_Finalize();
  return 0;
}
