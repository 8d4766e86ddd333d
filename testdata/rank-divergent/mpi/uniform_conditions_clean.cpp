// Conditions every rank evaluates alike: the world size, compile-time
// constants and values computed from them.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

#define ENABLE_CHECKS 1
constexpr bool kVerboseSync = false;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double value = rank, sum = 0;
  if (size > 1)
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (kVerboseSync)
    MPI_Barrier(MPI_COMM_WORLD);
  if (ENABLE_CHECKS)
    MPI_Barrier(MPI_COMM_WORLD);
  const int chunks = size * 2;
  for (int c = 0; c < chunks; ++c)
    MPI_Bcast(&sum, 1, MPI_DOUBLE, c % size, MPI_COMM_WORLD);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
