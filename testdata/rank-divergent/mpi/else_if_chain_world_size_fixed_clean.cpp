// The job insists on exactly two ranks, so the chain over rank 0 and rank 1
// covers every rank and both broadcast together.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "run with 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int setup = 0;
  if (rank == 0) {
    setup = 42;
    MPI_Bcast(&setup, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Bcast(&setup, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d setup %d\n", rank, setup);
  MPI_Finalize();
  return 0;
}
