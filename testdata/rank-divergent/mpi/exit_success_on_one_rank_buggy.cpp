// Rank 0 decides there is nothing to do and leaves with exit(EXIT_SUCCESS)
// before the barrier: a successful exit on one rank is an early exit like a
// `return`, and the other ranks wait in the barrier forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0 && argc < 3) {
    std::printf("rank 0: no input files, nothing to do\n");
    std::exit(EXIT_SUCCESS);
  }
  MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: past the barrier\n", me);
  MPI_Finalize();
  return 0;
}
