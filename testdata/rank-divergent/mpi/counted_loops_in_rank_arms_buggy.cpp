// The last rank splits the world one time fewer than the others, each in a
// counted loop of its own arm: the others wait in their last split.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

#define NCOMM 4

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm parts[NCOMM];
  int last = size - 1;
  if (rank == last) {
    for (i = 0; i < NCOMM - 1; i++)
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &parts[i]);
  } else {
    for (i = 0; i < NCOMM; i++)
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &parts[i]); // expect: distlint-rank-divergent-collective
  }
  MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d split\n", rank);
  MPI_Finalize();
  return 0;
}
