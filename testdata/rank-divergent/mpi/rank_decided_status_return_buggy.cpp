// A status check that looks like error handling, but the failure is decided
// by the rank: only even ranks keep a local copy of the checkpoint, so
// load_checkpoint fails on every odd rank by design. Those ranks return from
// train() before the all-reduce and finalize; rank 0 waits in it forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static int load_checkpoint(int rank, double *weight) {
  if (rank % 2 == 1)
    return -1; // no local copy on odd ranks
  *weight = 0.5;
  return 0;
}

static void train(int rank) {
  double weight = 0;
  if (load_checkpoint(rank, &weight) != 0) {
    std::fprintf(stderr, "rank %d: no checkpoint\n", rank);
    return;
  }
  MPI_Allreduce(MPI_IN_PLACE, &weight, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: weight %f\n", rank, weight);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  train(rank);
  MPI_Finalize();
  return 0;
}
