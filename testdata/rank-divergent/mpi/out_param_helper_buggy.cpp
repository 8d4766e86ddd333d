// The rank comes back through an out-parameter of a helper; rank 1 then
// waits for a broadcast that the root never starts.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void query_rank(MPI_Comm comm, int *rank) { MPI_Comm_rank(comm, rank); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = -1;
  query_rank(MPI_COMM_WORLD, &me);
  int epoch = 7;
  if (me == 1)
    MPI_Bcast(&epoch, 1, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d epoch %d\n", me, epoch);
  MPI_Finalize();
  return 0;
}
