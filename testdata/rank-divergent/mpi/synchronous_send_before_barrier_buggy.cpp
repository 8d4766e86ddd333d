// As buffered_send_before_barrier_clean, with MPI_Ssend: a synchronous send
// returns only once the receive has started, and the receiver waits in the
// barrier first. Rank 0 blocks in MPI_Ssend, rank 1 in MPI_Barrier.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = 4096;
  std::vector<int> data(count, rank);
  if (size >= 2 && rank == 0) {
    MPI_Ssend(data.data(), count, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (size >= 2 && rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Recv(data.data(), count, MPI_INT, 0, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
