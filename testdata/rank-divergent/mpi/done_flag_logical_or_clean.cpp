// Training until any rank says it is done: the local flags are combined by a
// logical-or all-reduce, so every rank leaves the loop at the same
// iteration; an option read from argv (the same on every rank) chooses an
// extra reduction; the sizes gathered at the root size its receive buffer,
// which only the root reads.
// run: mpi clean
#include <mpi.h>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "sgd";
  int it = 0;
  while (true) {
    int local_done = it >= 10 + 3 * rank;
    int all_done = 0;
    MPI_Allreduce(&local_done, &all_done, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (all_done)
      break;
    if (strcmp(mode, "adam") == 0) {
      double m[4] = {0};
      MPI_Allreduce(MPI_IN_PLACE, m, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (++it % 5 == 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  int counts[64], displs[64], mine = rank + 1;
  MPI_Gather(&mine, 1, MPI_INT, rank == 0 ? counts : nullptr, 1, MPI_INT, 0,
             MPI_COMM_WORLD);
  double *all = nullptr;
  if (rank == 0) {
    int total = 0;
    for (int i = 0; i < size; ++i) {
      displs[i] = total;
      total += counts[i];
    }
    all = (double *)malloc(sizeof(double) * total);
  }
  double local[64] = {0};
  MPI_Gatherv(local, mine, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  free(all);
  MPI_Finalize();
  return 0;
}
