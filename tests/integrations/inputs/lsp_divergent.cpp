// Input of test_lsp.py and test_vscode_matcher.py: one collective that only
// rank 0 reaches. The annotations are the test's expectations.
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) // expect-note: rank
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  double local = 1.0, total = 0.0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
