// Rank 0 waits for the others after writing its report; nobody else calls
// the barrier, so rank 0 waits forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("writing report\n");
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
  return 0;
}
