// Rank 0 parses the options into a struct a helper fills and returns, but
// the struct is never broadcast: the trainer that keeps a copy runs 3
// epochs on rank 0 and none elsewhere, and rank 0 waits in its first
// all-reduce.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

struct RunConfig {
  int epochs;
  int patience;
};

static RunConfig parseOptions(int argc, char **argv) {
  RunConfig cfg{};
  cfg.epochs = 3;
  cfg.patience = 2;
  if (argc > 1)
    cfg.epochs = std::atoi(argv[1]);
  return cfg;
}

class Trainer {
public:
  explicit Trainer(const RunConfig &cfg) : cfg_(cfg) {}
  double fit() {
    double loss = 1, sum = 0;
    for (int e = 0; e < cfg_.epochs; ++e)
      MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    return sum;
  }

private:
  RunConfig cfg_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  RunConfig cfg{};
  if (rank == 0)
    cfg = parseOptions(argc, argv);
  Trainer trainer(cfg);
  std::printf("%g\n", trainer.fit());
  MPI_Finalize();
  return 0;
}
