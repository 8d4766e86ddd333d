// The rank hides behind a helper; the master gathers the metrics that the
// workers never send.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static bool is_master() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double metric = 0.25, metrics[64] = {0};
  if (is_master()) {
    MPI_Gather(&metric, 1, MPI_DOUBLE, metrics, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    std::printf("metrics[0] = %g\n", metrics[0]);
  }
  MPI_Finalize();
  return 0;
}
