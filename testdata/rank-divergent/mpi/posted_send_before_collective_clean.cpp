// Rank 0 posts its sends with MPI_Isend and goes on to the broadcast; the
// other ranks receive first and broadcast afterwards. The posted sends let
// every blocking receive complete, so every rank reaches the broadcast.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int work = 10 * rank, total = 0;
  if (rank == 0) {
    std::vector<MPI_Request> sent(size);
    std::vector<int> shares(size);
    for (int peer = 1; peer < size; ++peer) {
      shares[peer] = peer * 3;
      MPI_Isend(&shares[peer], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &sent[peer]);
    }
    MPI_Bcast(&work, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int peer = 1; peer < size; ++peer)
      MPI_Wait(&sent[peer], MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&total, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(&work, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d: share %d, work %d\n", rank, total, work);
  MPI_Finalize();
  return 0;
}
