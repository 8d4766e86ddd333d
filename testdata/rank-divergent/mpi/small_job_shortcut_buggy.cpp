// A helper meant to average the loss skips the all-reduce for "small jobs"
// of up to two ranks and returns the rank's own value. With two ranks the
// loop stops on each rank's own loss: rank 1 (the larger loss) leaves at
// once and waits in the final all-reduce, rank 0 waits in the loop's
// barrier.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static double average(double v, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size <= 2)
    return v;
  double total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total / size;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0 + rank;
  int steps = 0;
  for (int step = 0; step < 10; ++step) {
    if (average(loss, MPI_COMM_WORLD) > 1.5)
      break;
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    ++steps;
  }
  int total = 0;
  MPI_Allreduce(&steps, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("steps %d\n", total);
  MPI_Finalize();
  return 0;
}
