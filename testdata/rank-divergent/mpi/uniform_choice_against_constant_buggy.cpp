// The count is the same on every rank (it depends on the command line
// only) but not known here: the root sends `count` values while the others
// expect exactly one, so they disagree whenever the program runs without
// arguments (count == 2): the receivers' buffer is too short.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int values[2] = {rank, rank};
  const int count = argc == 1 ? 2 : 1;
  if (rank == 0)
    MPI_Bcast(values, count, MPI_INT, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  else
    MPI_Bcast(values, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::printf("rank %d got %d\n", rank, values[0]);
  MPI_Finalize();
  return 0;
}
