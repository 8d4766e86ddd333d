// Three kinds of ranks: the first posts a send to the last and waits in the
// barrier; the last receives it, then waits in the barrier, then receives a
// second, blocking send; the ranks between only wait in the barriers. The
// last rank's receives complete against the first rank's sends, whatever
// the ranks between do, so every rank reaches both barriers.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    std::fprintf(stderr, "needs two ranks or more\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int first = 0, last = size - 1;
  for (int round = 0; round < 3; ++round) {
    int payload = 100 + round, checksum = 0;
    if (rank == first) {
      MPI_Request sent;
      MPI_Isend(&payload, 1, MPI_INT, last, round, MPI_COMM_WORLD, &sent);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Wait(&sent, MPI_STATUS_IGNORE);
      checksum = payload * 2;
      MPI_Send(&checksum, 1, MPI_INT, last, 50 + round, MPI_COMM_WORLD);
    } else if (rank == last) {
      MPI_Recv(&payload, 1, MPI_INT, first, round, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Recv(&checksum, 1, MPI_INT, first, 50 + round, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      std::printf("round %d: %d, checksum %d\n", round, payload, checksum);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
