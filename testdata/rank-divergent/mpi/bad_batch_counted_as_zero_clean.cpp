// The step loop loads each batch in a try block; a bad batch (rank 1, step
// 3) is logged and counted as a zero loss, and the step goes on: every rank
// reaches every all-reduce. Only a handler that leaves the step (continue,
// break, return) would skip it.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <stdexcept>

static double load_batch(int rank, int step) {
  if (rank == 1 && step == 3)
    throw std::runtime_error("corrupt batch");
  return rank + 0.5 * step;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double total = 0;
  for (int step = 0; step < 6; ++step) {
    double loss = 0, sum = 0;
    try {
      loss = load_batch(rank, step);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "rank %d step %d: %s, zero loss\n", rank, step, e.what());
      loss = 0;
    }
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
  }
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
