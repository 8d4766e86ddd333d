// Both arms broadcast the configuration from rank 0, but the root also waits
// on a barrier that the other ranks never enter. The broadcasts match; the
// barrier does not.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int config[4] = {0, 0, 0, 0};
  if (rank == 0) {
    for (int i = 0; i < 4; ++i)
      config[i] = 10 * i;
    MPI_Bcast(config, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  } else {
    MPI_Bcast(config, 4, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d config[3] = %d\n", rank, config[3]);
  MPI_Finalize();
  return 0;
}
