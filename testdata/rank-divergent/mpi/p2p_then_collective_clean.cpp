// A pairwise exchange under rank branches, ordered so that every send meets
// its receive, then the same barrier on every rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int mine = rank, theirs = -1;
  const int peer = rank ^ 1;
  if (peer < size) {
    if (rank % 2 == 0) {
      MPI_Send(&mine, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(&theirs, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&theirs, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&mine, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d got %d\n", rank, theirs);
  MPI_Finalize();
  return 0;
}
