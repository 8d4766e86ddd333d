// A second file with one rank-divergent collective, for -j and --all tests.
#include <mpi.h>

static void sync_if_root(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // line 6: the finding
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  sync_if_root(rank);
  MPI_Finalize();
  return 0;
}
