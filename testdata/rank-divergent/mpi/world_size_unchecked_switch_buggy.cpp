// A switch over the rank without a size check: rank 0 all-reduces twice,
// rank 1 once (rank 0 waits forever in its second), and with three or more
// ranks rank 2 takes no arm at all.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  switch (rank) {
  case 0:
    value = 7;
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    break;
  case 1:
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  }
  std::printf("rank %d value %d\n", rank, value);
  MPI_Finalize();
  return 0;
}
