// Each rank walks its own block of batches, but the last rank also takes
// the remainder: its block is longer, so it issues more all-reduces than
// the others and waits forever in the first extra one.
// run: mpi buggy
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int total = 65;
  const int per_rank = total / size;
  const int first = rank * per_rank;
  const int count = rank == size - 1 ? total - first : per_rank;
  double g = 0.0;
  for (int b = first; b < first + count; ++b) {
    g = 1e-3 * b;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
  return 0;
}
