// The same exchange as posted_send_before_collective_clean, but rank 0 sends
// with the synchronous MPI_Ssend before the broadcast while rank 1 enters
// the broadcast before its receive: rank 0 blocks in the send, rank 1 in
// the broadcast, and neither call can complete.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int work = 10 * rank, share = 3;
  if (rank == 0) {
    MPI_Ssend(&share, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); // expect-note: rank class B issues 'MPI_Ssend' here instead
    MPI_Bcast(&work, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&work, 1, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    if (rank == 1)
      MPI_Recv(&share, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  std::printf("rank %d: share %d, work %d\n", rank, share, work);
  MPI_Finalize();
  return 0;
}
