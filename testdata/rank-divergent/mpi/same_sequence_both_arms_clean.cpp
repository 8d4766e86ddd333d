// Rank 0 reads the configuration, the others start empty; both arms then
// issue the same broadcast from root 0, so every rank takes part.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void read_config(int *config, int n) {
  for (int i = 0; i < n; ++i)
    config[i] = 3 * i;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int config[8] = {0};
  if (rank == 0) {
    read_config(config, 8);
    MPI_Bcast(config, 8, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(config, 8, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d config[7] = %d\n", rank, config[7]);
  MPI_Finalize();
  return 0;
}
