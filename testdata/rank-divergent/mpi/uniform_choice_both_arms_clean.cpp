// The same uniform-but-unknown count in both arms of a rank branch: every
// rank passes the same value, whichever the command line chose.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int values[2] = {rank, rank};
  const int count = argc == 1 ? 2 : 1;
  if (rank == 0) {
    values[1] = 7;
    MPI_Bcast(values, count, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(values, count, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d got %d %d\n", rank, values[0], values[1]);
  MPI_Finalize();
  return 0;
}
