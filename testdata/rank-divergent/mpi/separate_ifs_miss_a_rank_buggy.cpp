// Separate rank tests that look like they cover every rank but do not:
// `rank > 1` leaves out rank 1, which never reaches a barrier, so rank 0
// waits forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  if (rank > 1)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
