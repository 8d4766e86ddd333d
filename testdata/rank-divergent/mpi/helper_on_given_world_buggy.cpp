// The helper's collectives use the communicator it is given, and it is
// given the world communicator under a branch on the rank: the ranks that
// do not compute never join its all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static double work(MPI_Comm comm, double local) {
  double sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int computing = rank < (size + 1) / 2;
  MPI_Comm comm = MPI_COMM_WORLD;
  if (computing)
    std::printf("rank %d: sum %g\n", rank, work(comm, rank)); // expect: distlint-rank-divergent-collective
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
