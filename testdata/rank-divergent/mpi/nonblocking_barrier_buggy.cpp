// Nonblocking collectives are collectives too: only rank 0 starts the
// barrier, and its wait never completes.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request); // expect: distlint-rank-divergent-collective
    std::printf("overlapping work\n");
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
