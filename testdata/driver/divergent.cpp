// Only rank 0 reaches the barrier: the other ranks never match it.
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // line 9: the finding
  MPI_Finalize();
  return 0;
}
