// "Rank 0 goes first" split over two helpers, but the caller releases twice:
// rank 0 issues two barriers, the others one. Rank 0 waits in its second
// barrier while the others wait in the all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void enter(int rank) {
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

static void leave(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  enter(rank);
  leave(rank);
  if (rank == 0)
    std::printf("cache ready\n");
  leave(rank);
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
