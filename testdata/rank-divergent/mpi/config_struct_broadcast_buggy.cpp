// Rank 0 broadcasts the run configuration as a struct, then changes one
// field on its own (a command-line override applied after the broadcast):
// it runs one epoch more than the others, whose all-reduce never comes.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

struct Config {
  int epochs;
  int steps;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Config cfg{};
  if (rank == 0)
    cfg = Config{2, 3};
  MPI_Bcast(&cfg, sizeof(cfg), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank == 0 && argc < 3)
    cfg.epochs += 1;
  double loss = 1.0 + rank, total = 0;
  for (int epoch = 0; epoch < cfg.epochs; ++epoch)
    for (int step = 0; step < cfg.steps; ++step)
      MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: total %f\n", rank, total);
  MPI_Finalize();
  return 0;
}
