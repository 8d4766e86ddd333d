// A hybrid MPI + OpenMP solver that all-reduces its residual inside the
// parallel region: every thread of the team issues the collective, so a
// rank issues it once per thread, in an order the ranks do not agree on.
// The team size here follows the rank's share of the work (rank + 1
// threads), so rank 1 issues one all-reduce more than rank 0 and waits in
// it forever; with equal teams the threads' calls still pair up at random.
// distlint-args: -fopenmp
// run: mpi buggy
#include <mpi.h>
#include <omp.h>

#include <cstdio>

double residual_of(int thread) { return 1.0 / (thread + 1); }

void reduce_residual(double *local, double *global) {
  MPI_Allreduce(local, global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double total = 0.0;
#pragma omp parallel num_threads(rank + 1) // expect-note: the parallel region
  {
    double mine = residual_of(omp_get_thread_num()), sum = 0.0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
#pragma omp atomic
    total += sum;
  }
#pragma omp parallel num_threads(2)
  {
    double mine = 1.0, sum = 0.0;
    reduce_residual(&mine, &sum); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d: %f\n", rank, total);
  MPI_Finalize();
  return 0;
}
