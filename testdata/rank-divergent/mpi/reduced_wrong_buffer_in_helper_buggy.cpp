// The helper all-reduces the loss sum, not the stop flag it is also given:
// the flag stays this rank's own decision, and the rank that stops first
// leaves the others in the next iteration's all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void sync_metrics(double *loss_sum, int *stop, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, loss_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  (void)stop;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int step = 0; step < 10; ++step) { // expect-note: loop condition depends on rank
    double loss_sum = 1.0 / (step + 1 + rank);
    int stop = loss_sum < 0.3;
    sync_metrics(&loss_sum, &stop, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    if (stop)
      break;
  }
  MPI_Finalize();
  return 0;
}
