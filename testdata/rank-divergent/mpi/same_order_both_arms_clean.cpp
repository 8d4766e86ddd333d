// Both rank classes issue the barrier, then the all-reduce: the work
// between them differs, the order of collectives does not.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int a = rank, b = 0;
  if (rank % 2) {
    a *= 3;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    a += 1;
    MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  std::printf("rank %d sum %d\n", rank, b);
  MPI_Finalize();
  return 0;
}
