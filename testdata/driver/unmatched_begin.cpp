// A block-begin comment without its end is an error and silences nothing.
#include <mpi.h>

// NOLINTBEGIN(distlint-rank-divergent-collective)
void still_reported() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
