// Rank 0 parses the configuration and publishes it, the others receive it:
// each arm of the rank choice reaches the same broadcast through its own
// helper, so every rank ends with rank 0's configuration and runs the same
// number of steps.
// run: mpi clean
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

static Config receive() {
  Config c{0, 0};
  MPI_Bcast(&c, sizeof(Config), MPI_BYTE, 0, MPI_COMM_WORLD);
  return c;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Config cfg = rank == 0 ? publish(argc, argv) : receive();
  double loss = 1.0, sum = 0;
  for (int step = 0; step < cfg.steps; ++step)
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d: %d steps\n", rank, cfg.steps);
  MPI_Finalize();
  return 0;
}
