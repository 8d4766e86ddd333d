// Each rank class splits the world the same number of times, in a counted
// loop of its own arm (the counter declared once for the function, as in C):
// every rank that runs a loop runs it alike, and every class issues the
// same sequence.
// run: mpi clean
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
    for (i = 0; i < NCOMM; i++)
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &parts[i]);
  } else if (rank == 0) {
    std::printf("splitting %d times\n", NCOMM);
    for (i = 0; i < NCOMM; i++)
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &parts[i]);
  } else {
    for (int k = NCOMM; k > 0; k--)
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &parts[NCOMM - k]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (i = 0; i < NCOMM; i++)
    MPI_Comm_free(&parts[i]);
  MPI_Finalize();
  return 0;
}
