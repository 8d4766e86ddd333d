// The twin of flush_mode_fixed_at_build_clean built for a mode the origin's
// chains do not handle: the origin issues no barrier while the others wait
// in theirs.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  enum { FlushNone, FlushOne, FlushAll, FlushLocal } mode;
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mode = FlushLocal;
  if (rank == 0) {
    if (mode == FlushAll) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (mode == FlushOne) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
    if (mode == FlushNone) {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d of %d done\n", rank, size);
  MPI_Finalize();
  return 0;
}
