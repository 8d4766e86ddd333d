// MPI_Comm_free is collective in the standard, which advises implementing it
// local, and every implementation does: it never waits for the other
// members. Rank 0 frees its duplicate after a barrier, the others before
// it, and a rank that already freed it skips the second free.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm work;
  MPI_Comm_dup(MPI_COMM_WORLD, &work);
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&work);
  } else {
    MPI_Comm_free(&work);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (work != MPI_COMM_NULL)
    MPI_Comm_free(&work);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
