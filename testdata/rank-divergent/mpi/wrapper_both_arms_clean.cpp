// The two arms call different functions, but both functions issue the same
// collective sequence (one barrier), so every rank takes part.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void sync_all(MPI_Comm comm) { MPI_Barrier(comm); }

static void save_and_sync(MPI_Comm comm) {
  std::printf("saving\n");
  sync_all(comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    save_and_sync(MPI_COMM_WORLD);
  else
    sync_all(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
