// The reduction operator depends on the rank: rank 0 sums while the others
// take the maximum, so the ranks end up with different "global" values. The
// consistency check at the end aborts the job.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const MPI_Op op = rank == 0 ? MPI_SUM : MPI_MAX;
  double local = 1.0 + rank, global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, op, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  double low = 0, high = 0;
  MPI_Allreduce(&global, &low, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&global, &high, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (low != high) {
    std::fprintf(stderr, "ranks disagree: %g vs %g\n", low, high);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return 0;
}
