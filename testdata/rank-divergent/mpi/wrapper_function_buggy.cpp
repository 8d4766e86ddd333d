// The collective hides two calls deep; the branch on the rank is in main, so
// the finding is the call of save_checkpoint there.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static void sync_all(MPI_Comm comm) {
  MPI_Barrier(comm); // expect-note: collective issued here
}

static void save_checkpoint(MPI_Comm comm, int step) {
  std::printf("checkpoint %d\n", step);
  sync_all(comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    save_checkpoint(MPI_COMM_WORLD, 10); // expect: distlint-rank-divergent-collective
  MPI_Finalize();
  return 0;
}
