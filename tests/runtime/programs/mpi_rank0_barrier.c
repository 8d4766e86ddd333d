/* Rank 0 enters a barrier the others never reach; they go on to the final
   all-reduce and wait there.
   run: mpi buggy */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int local = rank + 1, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); /* divergence here */
  MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: total %d\n", rank, total);
  MPI_Finalize();
  return 0;
}
