// The step loop has no condition of its own: each rank leaves it when its
// own loss is small enough, and that test comes after the all-reduce in the
// same basic block. Rank 1's loss falls faster; it leaves after its fourth
// all-reduce while rank 0 waits in its fifth.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double weight = 1.0, loss = 10.0;
  int step = 0;
  while (true) {
    double grad = weight * (rank + 1);
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    weight -= 0.01 * grad;
    loss /= 1.5 + rank;
    ++step;
    if (loss < 0.5)
      break;
  }
  std::printf("rank %d stopped after %d steps\n", rank, step);
  MPI_Finalize();
  return 0;
}
