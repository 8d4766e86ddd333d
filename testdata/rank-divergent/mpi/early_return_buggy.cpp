// The last rank has no samples and returns early from the training step;
// the others wait for it in the gradient all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void train_step(int rank, int size, double *grads, int n) {
  const int samples = rank == size - 1 ? 0 : 32;
  if (samples == 0)
    return;
  for (int i = 0; i < n; ++i)
    grads[i] = samples * 0.5;
  MPI_Allreduce(MPI_IN_PLACE, grads, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double grads[8] = {0};
  train_step(rank, size, grads, 8);
  std::printf("rank %d grad %g\n", rank, grads[0]);
  MPI_Finalize();
  return 0;
}
