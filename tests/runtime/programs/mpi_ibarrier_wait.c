/* Rank 0 starts a non-blocking barrier the other ranks never join and
   waits for it; rank 1 waits in MPI_Finalize. With DISTLINT_RT_ABORT=1 the
   watchdog must end the job although both block in calls with no
   communicator of their own (MPI_Wait, MPI_Finalize).
   run: mpi buggy */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request); /* divergence here */
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
