// The master-only helper does no collective, so calling it under a rank
// condition is fine.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static bool is_master(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank == 0;
}

static void report(const double *values, int n) {
  double total = 0;
  for (int i = 0; i < n; ++i)
    total += values[i];
  std::printf("total %g\n", total);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double values[3] = {1, 2, 3}, sums[3] = {0};
  MPI_Allreduce(values, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (is_master(MPI_COMM_WORLD))
    report(sums, 3);
  MPI_Finalize();
  return 0;
}
