// Rank 1 finds a corrupt shard and the loader throws; the exception is caught
// in main, logged, and the program goes on - but rank 1 skipped the all-reduce
// in the try block that rank 0 is waiting in.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <stdexcept>

static double load_shard(int rank) {
  if (rank == 1)
    throw std::runtime_error("corrupt shard");
  return 2.0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mean = 0;
  try {
    double value = load_shard(rank);
    MPI_Allreduce(&value, &mean, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  } catch (const std::exception &e) {
    std::printf("rank %d: %s, continuing\n", rank, e.what());
  }
  std::printf("rank %d mean %g\n", rank, mean);
  MPI_Finalize();
  return 0;
}
