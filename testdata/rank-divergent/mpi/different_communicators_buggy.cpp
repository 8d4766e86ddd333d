// A duplicate of the world communicator has the same members. Rank 0
// reduces the loss on the duplicate while the others reduce on the world
// communicator: same operation, same position, different communicators.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double loss = 1.0 + rank, total = 0;
  {
    MPI_Comm mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    if (rank == 0)
      MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, mine); // expect: distlint-rank-divergent-collective
    else
      MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&mine);
  }
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
