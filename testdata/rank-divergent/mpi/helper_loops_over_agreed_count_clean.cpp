// A helper runs one all-reduce per step for as many steps as it is told.
// Each rank counts its own local batches, and the ranks agree on the
// smallest count (MPI_MIN) before they tell the helper: every rank runs as
// many steps.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static double run_steps(int steps, int rank) {
  double total = 0.0;
  for (int step = 0; step < steps; ++step) {
    double local = double(rank + step), sum = 0.0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
  }
  return total;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int local_batches = 3 + rank;
  int steps = 0;
  MPI_Allreduce(&local_batches, &steps, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const double total = run_steps(steps, rank);
  if (rank == 0)
    std::printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
