// Rank 1 finds its shard empty and throws inside the try block; the
// exception is caught, logged, and the program goes on - but rank 1 skipped
// the all-reduce that rank 0 is waiting in.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <stdexcept>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double mean = 0;
  try {
    const int samples = rank == 1 ? 0 : 16;
    if (samples == 0)
      throw std::runtime_error("empty shard");
    double value = samples * 0.5;
    MPI_Allreduce(&value, &mean, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  } catch (const std::exception &e) {
    std::printf("rank %d: %s, continuing\n", rank, e.what());
  }
  std::printf("rank %d mean %g\n", rank, mean);
  MPI_Finalize();
  return 0;
}
