// Trains until the local wall-clock budget is used up. Each rank reads its
// own clock, so one rank can leave the loop an iteration before the other,
// which then waits in the all-reduce forever.
// run: none -- whether the ranks leave in different iterations depends on
// their clock skew at the deadline, so the hang cannot be forced by a run.
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const double start = MPI_Wtime();
  double loss = 1.0, global = 0;
  int steps = 0;
  while (MPI_Wtime() - start < 0.5) {
    loss *= 0.99;
    MPI_Allreduce(&loss, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    ++steps;
  }
  std::printf("%d steps, loss %g\n", steps, global);
  MPI_Finalize();
  return 0;
}
