// `&&` short-circuits: ranks other than 0 never evaluate the barrier.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool synced =
      rank == 0 && MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS; // expect: distlint-rank-divergent-collective
  std::printf("rank %d synced %d\n", rank, synced ? 1 : 0);
  MPI_Finalize();
  return 0;
}
