// Each rank walks its own contiguous block of batches. The start differs
// per rank, but the block has the same length everywhere (written as
// `first + per_rank`, or as `(rank + 1) * per_rank` against `rank *
// per_rank`), so every rank runs the all-reduce equally often.
// run: mpi clean
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int per_rank = 64 / size;
  const int first = rank * per_rank;
  double g = 0.0;
  for (int b = first; b < first + per_rank; ++b) {
    g = 1e-3 * b;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  for (int i = rank * per_rank; i < (rank + 1) * per_rank; i += 2)
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
