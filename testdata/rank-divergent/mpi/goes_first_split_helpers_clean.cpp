// "Rank 0 goes first" split over two helpers given the rank: enter() makes
// the other ranks wait, leave() lets rank 0 release them. Each helper alone
// issues its barrier on some ranks only; at their one caller every rank
// issues exactly one barrier between them.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void enter(int rank) {
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD); // the others wait for rank 0
}

static void leave(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // rank 0 releases them
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  enter(rank);
  if (rank == 0)
    std::printf("rank 0 prepares the cache\n");
  leave(rank);
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
