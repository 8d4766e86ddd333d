// Rank-dependent work inside a loop whose trip count is uniform; the
// collective sits outside the rank branch, so every rank reaches it the
// same number of times.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double acc = 0;
  for (int turn = 0; turn < size; ++turn) {
    if (turn == rank)
      acc += 1.0; // this rank's turn to do the local work
    MPI_Barrier(MPI_COMM_WORLD);
  }
  for (int i = 0; i < rank; ++i)
    acc *= 1.5; // local only: no collective in a rank-length loop
  double sum = 0;
  MPI_Allreduce(&acc, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
