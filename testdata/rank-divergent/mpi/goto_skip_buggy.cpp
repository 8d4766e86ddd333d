// Old-style cleanup with goto: rank 0 jumps over the statistics gather.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int stats[2] = {rank, 2 * rank};
  int all[16] = {0};
  if (rank == 0)
    goto done;
  MPI_Allgather(stats, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
done:
  std::printf("rank %d all[1] = %d\n", rank, all[1]);
  MPI_Finalize();
  return 0;
}
