// The branch is inside a helper whose parameter carries the rank from its
// caller.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void maybe_validate(int who, int *value) {
  if (who == 0)
    MPI_Bcast(value, 1, MPI_INT, 1, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int value = 3;
  maybe_validate(rank, &value); // expect-note: rank-dependent value passed here
  std::printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
