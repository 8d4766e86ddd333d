// Inside the branch of its colour a rank may use the sub-communicator it
// belongs to; the all-reduce on `group` is fine. The barrier on the world
// communicator in the same branch is not: ranks of the other colour never
// call it.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int color = rank % 2;
  MPI_Comm group;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &group);
  double value = 1.0, sum = 0;
  if (color == 0) {
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, group);
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Comm_free(&group);
  MPI_Finalize();
  return 0;
}
