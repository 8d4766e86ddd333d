// Each rank class calls its own phase helper; the helpers issue the same
// collectives in a different order, which only shows inside them.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

namespace {
void sync_then_sum(double *v, double *out) {
  MPI_Barrier(MPI_COMM_WORLD); // expect-note: collective issued here
  MPI_Allreduce(v, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
void sum_then_sync(double *v, double *out) {
  MPI_Allreduce(v, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
}
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double v = rank + 1.0, out = 0;
  const bool leader = rank == 0;
  if (leader)
    sync_then_sum(&v, &out); // expect: distlint-rank-divergent-collective
  else
    sum_then_sync(&v, &out);
  std::printf("rank %d out %g\n", rank, out);
  MPI_Finalize();
  return 0;
}
