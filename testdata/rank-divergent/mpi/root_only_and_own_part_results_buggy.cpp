// Receive buffers whose contents differ between ranks afterwards. MPI_Reduce
// fills `total` on the root alone (the others keep 0), so only the root
// enters the barrier; MPI_Scatter hands each rank its own count, so the
// ranks run the all-reduce loop a different number of times.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine = rank + 1.0, total = 0.0;
  MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (total > 0.0)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  int counts[64] = {0}, steps = 0;
  for (int r = 0; r < size && r < 64; ++r)
    counts[r] = r + 1;
  MPI_Scatter(counts, 1, MPI_INT, &steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double acc = 0.0;
  for (int s = 0; s < steps; ++s)
    MPI_Allreduce(&mine, &acc, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d total %f acc %f\n", rank, total, acc);
  MPI_Finalize();
  return 0;
}
