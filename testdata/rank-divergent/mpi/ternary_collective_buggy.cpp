// The conditional operator hides the collective: only rank 0 evaluates the
// all-reduce of the error count.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int errors = 0, all_errors = 0;
  int status = rank == 0 ? MPI_Allreduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) // expect: distlint-rank-divergent-collective
                         : MPI_SUCCESS;
  std::printf("rank %d status %d errors %d\n", rank, status, all_errors);
  MPI_Finalize();
  return 0;
}
