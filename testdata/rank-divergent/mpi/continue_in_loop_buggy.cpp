// Rank 0 skips the synchronisation of the warm-up batch with `continue`, so
// it runs one barrier fewer than the others.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int synced = 0;
  for (int batch = 0; batch < 5; ++batch) {
    if (rank == 0 && batch == 0)
      continue;
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    ++synced;
  }
  std::printf("rank %d synced %d batches\n", rank, synced);
  MPI_Finalize();
  return 0;
}
