/* Two communicators used in opposite orders: rank 0 enters the barrier on
   MPI_COMM_WORLD, rank 1 the barrier on a duplicate of it. Each waits for the
   other on a different communicator, and neither sequence number disagrees,
   so only a comparison across communicators sees it before the timeout.
   run: mpi buggy */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm data;
  MPI_Comm_dup(MPI_COMM_WORLD, &data);
  MPI_Barrier(MPI_COMM_WORLD); /* both ranks: collective #1 on the world */
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 waits: divergence here */
    MPI_Barrier(data);
  } else {
    MPI_Barrier(data); /* rank 1 waits: divergence here */
    MPI_Barrier(MPI_COMM_WORLD);
  }
  printf("rank %d finished\n", rank);
  MPI_Comm_free(&data);
  MPI_Finalize();
  return 0;
}
