// The step loop has no condition of its own and leaves on a test after the
// all-reduce, as in exit_test_after_collective_buggy.cpp, but the loss it
// tests is the all-reduced mean: every rank leaves after the same step.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double weight = 1.0, local_loss = 10.0 + rank;
  int step = 0;
  while (true) {
    double grad = weight * (rank + 1);
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    weight -= 0.01 * grad;
    local_loss /= 1.5 + rank;
    double mean_loss = 0;
    MPI_Allreduce(&local_loss, &mean_loss, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mean_loss /= size;
    ++step;
    if (mean_loss < 0.5)
      break;
  }
  std::printf("rank %d stopped after %d steps\n", rank, step);
  MPI_Finalize();
  return 0;
}
