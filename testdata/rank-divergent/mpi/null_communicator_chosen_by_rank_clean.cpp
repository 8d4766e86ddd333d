// The first two ranks hold the leaders' communicator, the others
// MPI_COMM_NULL (chosen by the rank). After `if (leaders ==
// MPI_COMM_NULL) return;` only members go on, and every member reduces on
// it: the ranks that return are not expected to take part.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void reduce_among_leaders(int rank, MPI_Comm split) {
  MPI_Comm leaders = rank < 2 ? split : MPI_COMM_NULL;
  if (leaders == MPI_COMM_NULL)
    return;
  int value = rank, sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, leaders);
  std::printf("leader %d sum %d\n", rank, sum);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm split;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &split);
  reduce_among_leaders(rank, split);
  if (split != MPI_COMM_NULL)
    MPI_Comm_free(&split);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
