// Rank 0 and rank 2 each broadcast their part of the setup; an `else if`
// chain over explicit ranks with no final `else` leaves every other rank out
// (with two ranks, rank 1 never joins either broadcast; the root blocks
// handing the large setup to it).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

#define ROOT_BCAST(buf, n) MPI_Bcast((buf), (n), MPI_INT, 0, MPI_COMM_WORLD) // expect-note: expanded from macro 'ROOT_BCAST'

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank); // expect-note: rank comes from here
  static int setup[1 << 20];
  setup[0] = rank;
  if (rank == 0) {
    ROOT_BCAST(setup, 1 << 20); // expect: distlint-rank-divergent-collective
  } else if (rank == 2) {
    ROOT_BCAST(setup, 1 << 20); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d setup %d\n", rank, setup[0]);
  MPI_Finalize();
  return 0;
}
