// Rank 0 parses the options into a struct a helper fills and returns; the
// struct is broadcast as bytes and handed to a trainer that keeps a copy.
// The helper runs on rank 0 alone, but it writes its own local struct: the
// branch around the call decides what main's `cfg` holds until the
// broadcast, not what every RunConfig holds, so the trainer's epoch count
// is the broadcast one on every rank.
// run: mpi clean
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
      MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
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
  MPI_Bcast(&cfg, sizeof(RunConfig), MPI_BYTE, 0, MPI_COMM_WORLD);
  Trainer trainer(cfg);
  std::printf("%g\n", trainer.fit());
  MPI_Finalize();
  return 0;
}
