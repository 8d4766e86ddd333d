// The hybrid MPI + OpenMP solver done right: the threads compute, and one
// thread of the team issues each collective (`omp single`, `omp master`
// followed by a barrier, a test of the thread number), or the collective
// runs after the region. Every rank issues each collective once, whatever
// its team size.
// distlint-args: -fopenmp
// run: mpi clean
#include <mpi.h>
#include <omp.h>

#include <cstdio>

int main(int argc, char **argv) {
  int provided = 0, rank = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local = 0.0, global = 0.0, check = 0.0, last = 0.0;
#pragma omp parallel num_threads(rank + 1) reduction(+ : local)
  {
    local += 1.0 / (omp_get_thread_num() + 1);
  }
#pragma omp parallel num_threads(rank + 1)
  {
#pragma omp single
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#pragma omp master
    MPI_Allreduce(&global, &check, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#pragma omp barrier
    if (omp_get_thread_num() == 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Allreduce(&check, &last, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  std::printf("rank %d: %f %f %f\n", rank, global, check, last);
  MPI_Finalize();
  return 0;
}
