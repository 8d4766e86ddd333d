// "Rank 0 goes first" in a helper given the rank, but rank 0 waits once
// more after writing its report: it issues two barriers, the others one,
// so rank 0 waits forever in the second.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void prepare_cache(int rank) {
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d: preparing\n", rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("report written\n");
    // expect-note@+1: with 2 ranks, rank 0 issues this here while rank 1 issues nothing more
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  prepare_cache(rank);
  MPI_Finalize();
  return 0;
}
