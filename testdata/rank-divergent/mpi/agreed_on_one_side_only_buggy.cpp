// Only rank 0's helper broadcasts; the others take local defaults. Rank 0
// waits in a broadcast nobody else issues (and the step counts would
// differ too).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

struct Config {
  int steps;
  int batch;
};

static Config publish(int argc, char **argv) {
  Config c{argc > 1 ? std::atoi(argv[1]) : 3, 32};
  MPI_Bcast(&c, sizeof(Config), MPI_BYTE, 0, MPI_COMM_WORLD);
  return c;
}

static Config defaults() { return Config{2, 32}; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Config cfg = rank == 0 ? publish(argc, argv) : defaults(); // expect: distlint-rank-divergent-collective
  double loss = 1.0, sum = 0;
  for (int step = 0; step < cfg.steps; ++step)
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d: %d steps\n", rank, cfg.steps);
  MPI_Finalize();
  return 0;
}
