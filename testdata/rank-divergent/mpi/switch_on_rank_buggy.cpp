// A switch on the rank: the coordinator collects the totals with a reduce,
// workers just report. The reduce waits for contributions that never come.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long processed = 100 + rank, total = 0;
  switch (rank) {
  case 0:
    MPI_Reduce(&processed, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    std::printf("total %ld\n", total);
    break;
  default:
    std::printf("rank %d processed %ld\n", rank, processed);
    break;
  }
  MPI_Finalize();
  return 0;
}
