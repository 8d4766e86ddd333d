// Each rank starts with its own rank as the candidate root; the helper
// overwrites the out-parameter on every path with the index of the largest
// value of an all-gathered array, the same on every rank. The broadcast's
// root is therefore the same everywhere.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void rankOfLargest(double local, int *owner) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double all[64] = {0};
  MPI_Allgather(&local, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  *owner = 0;
  for (int i = 1; i < ranks && i < 64; ++i)
    if (all[i] > all[*owner])
      *owner = i;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int root = me;
  rankOfLargest(me * 1.5, &root);
  int info[4] = {me, 0, 0, 0};
  MPI_Bcast(info, 4, MPI_INT, root, MPI_COMM_WORLD);
  std::printf("rank %d: root %d sent %d\n", me, root, info[0]);
  MPI_Finalize();
  return 0;
}
