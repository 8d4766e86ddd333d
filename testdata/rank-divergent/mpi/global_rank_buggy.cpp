// The rank lives in a global set at start-up; the logging helper reduces the
// metrics only on the logging rank.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

static int g_rank = 0;

static void log_metrics(double loss) {
  double sum = 0;
  if (g_rank == 0) {
    MPI_Reduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    std::printf("loss sum %g\n", sum);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  log_metrics(0.5);
  MPI_Finalize();
  return 0;
}
