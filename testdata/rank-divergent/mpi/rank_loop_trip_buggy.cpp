// Each rank refines its block rank+1 times and sums the residual each time:
// the number of all-reduces differs between ranks.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double residual = 1.0, total = 0;
  for (int level = 0; level <= rank; ++level) {
    residual *= 0.5;
    MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
