// The step callback decides from the local clock whether to stop; a call
// through a function pointer given rank-local data returns rank-local data,
// so ranks whose clock says "stop" skip the barrier the others wait in.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static int overBudget(double elapsed) { return elapsed > 0.5; }

static void train(int (*stop)(double)) {
  double start = MPI_Wtime();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    volatile double spin = 0;
    while (MPI_Wtime() - start < 1.0)
      spin = spin + 1;
  }
  if (!stop(MPI_Wtime() - start))
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: past the barrier\n", rank);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  train(overBudget);
  MPI_Finalize();
  return 0;
}
