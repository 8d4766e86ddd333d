// The root reduces only when the step count is odd; the other ranks reduce
// every time. The inner test is the same on every rank, but it sits in the
// root's arm only: with an even count the others wait alone.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

struct Stats {
  double sum = 0, total = 0;
};

static void reduce_stats(Stats &s) {
  MPI_Allreduce(&s.sum, &s.total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int n = argc > 1 ? std::atoi(argv[1]) : 4;
  Stats s;
  s.sum = rank;
  if (rank == 0) {
    if (n % 2)
      reduce_stats(s);
  } else {
    reduce_stats(s); // expect: distlint-rank-divergent-collective
  }
  std::printf("rank %d total %g\n", rank, s.total);
  MPI_Finalize();
  return 0;
}
