// The loop exits on the all-reduced residual, which every rank sees alike,
// even though each rank's own residual differs.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local = 1.0 + rank, global = 0;
  int iterations = 0;
  while (true) {
    local *= 0.5;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    ++iterations;
    if (global < 1e-3)
      break;
  }
  std::printf("rank %d converged after %d iterations\n", rank, iterations);
  MPI_Finalize();
  return 0;
}
