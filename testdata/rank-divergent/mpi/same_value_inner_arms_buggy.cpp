// Only the first process picks the round count, by a command-line choice
// that every process makes alike; both of its inner arms pick 2, but the
// other processes keep the default 3, so they wait in a third all-reduce
// that the first process never issues.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int rounds = 3;
  if (me == 0) {
    if (argc > 1)
      rounds = 2;
    else
      rounds = 2;
  }
  double total = me;
  for (int r = 0; r < rounds; ++r) // expect-note: loop condition depends on rank
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD); // expect@-1: distlint-rank-divergent-collective
  std::printf("%d: %g\n", me, total);
  MPI_Finalize();
  return 0;
}
