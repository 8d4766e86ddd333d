/* Rank 1 expects one message more than rank 0 sends: its last MPI_Recv
   waits forever.
   run: mpi buggy */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int messages = rank == 0 ? 2 : 3;
  int value = 0;
  for (int i = 0; i < messages; ++i) {
    if (rank == 0)
      MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
      MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* divergence here */
  }
  printf("rank %d: last value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
