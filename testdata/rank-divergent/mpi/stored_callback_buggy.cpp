// An end-of-epoch hook is stored in a std::function and only the last rank
// runs it; the hook all-reduces the epoch statistics.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <functional>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double seen = 10 + rank, total = 0;
  std::function<void()> on_epoch_end = [&] {
    MPI_Allreduce(&seen, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  };
  if (rank == size - 1)
    on_epoch_end(); // expect: distlint-rank-divergent-collective
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
