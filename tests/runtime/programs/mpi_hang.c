/* The quick start's program from issue 12: only rank 0 calls the
   all-reduce; rank 1 goes on to MPI_Finalize. Started as N singletons it
   "works"; as one job it hangs.
   run: mpi buggy */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int local = rank + 1, total = 0;
  if (rank == 0)
    MPI_Allreduce(&local, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* divergence here */
  printf("rank %d of %d: total %d\n", rank, size, total);
  MPI_Finalize();
  return 0;
}
