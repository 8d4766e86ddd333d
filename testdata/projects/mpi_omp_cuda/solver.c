// A Jacobi-style solver: OpenMP threads relax the rank's block, MPI ranks
// agree on the residual. Only rank 0 reduces the largest update: the other
// ranks never enter that reduction, so rank 0 waits in it forever.
// run: mpi buggy
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

enum { N = 256, ITERATIONS = 20 };

static double relax(double *u, int n) {
  double local = 0.0;
#pragma omp parallel for reduction(+ : local)
  for (int i = 1; i < n - 1; ++i) {
    double next = 0.5 * (u[i - 1] + u[i + 1]);
    local += (next - u[i]) * (next - u[i]);
    u[i] = next;
  }
  return local;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double u[N] = {0};
  u[N - 1] = 1.0;
  for (int iter = 0; iter < ITERATIONS; ++iter) {
    double local = relax(u, N), residual = 0.0;
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
      double largest = 0.0;
      MPI_Reduce(&local, &largest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
      printf("iteration %d: residual %g, largest %g\n", iter, residual, largest);
    }
  }
  printf("rank %d done with %d threads\n", rank, omp_get_max_threads());
  MPI_Finalize();
  return 0;
}
