// The step loop loads each batch in a try block and skips a bad batch with
// `continue` in the handler. Rank 1's shard has a corrupt batch at step 3:
// rank 1 skips that step's all-reduce, so from then on the ranks pair
// different steps' all-reduces, and rank 0's last one waits forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <stdexcept>

static double load_batch(int rank, int step) {
  if (rank == 1 && step == 3)
    throw std::runtime_error("corrupt batch");
  return rank + 0.5 * step;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double total = 0;
  for (int step = 0; step < 6; ++step) {
    double loss = 0, sum = 0;
    try {
      loss = load_batch(rank, step); // expect-note: throws on some ranks only
    } catch (const std::exception &e) {
      std::fprintf(stderr, "rank %d step %d: %s, skipping\n", rank, step, e.what());
      continue;
    }
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    total += sum;
  }
  std::printf("rank %d total %g\n", rank, total);
  MPI_Finalize();
  return 0;
}
