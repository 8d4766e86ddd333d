// Only rank 0 joins the "writers" communicator (the others pass
// MPI_UNDEFINED and get MPI_COMM_NULL); collectives on it run only where the
// communicator exists.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm writers;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, rank, &writers);
  if (writers != MPI_COMM_NULL) {
    int files = 1, total = 0;
    MPI_Allreduce(&files, &total, 1, MPI_INT, MPI_SUM, writers);
    MPI_Barrier(writers);
    MPI_Comm_free(&writers);
    std::printf("writers wrote %d files\n", total);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
