// Rank 0 hands its partial result to rank 1 with a synchronous send before
// the barrier; rank 1 enters the barrier first and receives afterwards.
// Rank 0 blocks in the send, rank 1 in the barrier: neither returns.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void handoff(double *value, int peer) {
  MPI_Ssend(value, 1, MPI_DOUBLE, peer, 7, MPI_COMM_WORLD); // expect-note: rank class B issues 'MPI_Ssend' here instead
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double partial = 2.5 * rank;
  if (rank == 0) {
    handoff(&partial, 1);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Recv(&partial, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d partial %g\n", rank, partial);
  MPI_Finalize();
  return 0;
}
