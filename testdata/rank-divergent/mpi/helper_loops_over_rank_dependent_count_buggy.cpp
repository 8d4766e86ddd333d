// A helper runs one all-reduce per step for as many steps as it is told,
// and each rank tells it a count of its own (its number of local batches):
// the rank with more batches all-reduces alone at the end.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static double run_steps(int steps, int rank) {
  double total = 0.0;
  for (int step = 0; step < steps; ++step) {
    double local = double(rank + step), sum = 0.0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    total += sum;
  }
  return total;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int local_batches = 3 + rank;
  const double total = run_steps(local_batches, rank);
  if (rank == 0)
    std::printf("total %g\n", total);
  MPI_Finalize();
  return 0;
}
