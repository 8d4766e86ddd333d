// The helper clears the caller's flag only on rank 0; on the other ranks the
// out-parameter keeps what the caller passed in. Rank 0 then enters the
// barrier alone.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void clearOnFirstRank(int rank, int *skip) {
  if (rank == 0)
    *skip = 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int skip = 1;
  clearOnFirstRank(me, &skip);
  if (!skip)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: done\n", me);
  MPI_Finalize();
  return 0;
}
