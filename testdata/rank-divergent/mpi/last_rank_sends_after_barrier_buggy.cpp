// The first rank waits for a message from the last before the barrier, but
// the last rank sends it only after the barrier: the first rank blocks in
// MPI_Recv while the others block in MPI_Barrier. The ranks between issue
// no send or receive, so nothing else can complete the receive.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int first = 0, last = size - 1;
  int ready = 0;
  if (size > 1) {
    if (rank == first) {
      MPI_Recv(&ready, 1, MPI_INT, last, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == last) {
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
      ready = 1;
      MPI_Send(&ready, 1, MPI_INT, first, 0, MPI_COMM_WORLD);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }
  std::printf("rank %d: ready %d\n", rank, ready);
  MPI_Finalize();
  return 0;
}
