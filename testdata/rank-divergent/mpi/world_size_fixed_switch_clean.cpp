// The job insists on two ranks (the size check ends it on every rank
// otherwise), and the switch over the rank gives each of the two its own
// arm; every arm broadcasts once.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    std::fprintf(stderr, "run with 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  switch (rank) {
  case 0:
    value = 7;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  case 1:
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    break;
  }
  std::printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
