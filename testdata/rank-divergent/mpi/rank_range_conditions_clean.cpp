// Conditions on the rank that hold on every rank: a rank is never negative
// and always below the world size.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double value = rank, sum = 0;
  if (rank < size)
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (rank >= 0)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank <= size - 1 && size > 0)
    MPI_Barrier(MPI_COMM_WORLD);
  if (rank < 0 || rank >= size)
    std::printf("impossible rank %d\n", rank);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
