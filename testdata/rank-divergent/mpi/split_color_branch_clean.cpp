// A communicator split by colour; each rank runs collectives on its own
// sub-communicator inside the branch of its colour, so only members call
// them.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int color = rank % 2;
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  double value = 1.0 + rank, sum = 0;
  if (color == 0) {
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, half);
  } else {
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, half);
    MPI_Barrier(half);
  }
  MPI_Comm_free(&half);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
