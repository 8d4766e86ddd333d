// Each side names a different root for the same broadcast: rank 0 thinks it
// is the root, the others think rank 1 is. With a large buffer both roots
// block sending to a peer that is itself sending.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> weights(1 << 20, rank);
  if (rank == 0)
    MPI_Bcast(weights.data(), 1 << 20, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  else
    MPI_Bcast(weights.data(), 1 << 20, MPI_INT, 1, MPI_COMM_WORLD); // expect-note: rank class B issues 'MPI_Bcast' here instead
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d weights[0] %d\n", rank, weights[0]);
  MPI_Finalize();
  return 0;
}
