// Rank 0 reads the whole configuration, but the broadcast helper sends
// the epoch count only: the checkpoint directory stays empty on the other
// ranks, so rank 0 alone enters the reduction in the checkpoint helper
// (and the ranks then disagree on every collective after it).
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <string>

struct Config {
  int epochs = 1;
  std::string checkpoint_dir;
};

static Config read_config() {
  Config cfg;
  cfg.epochs = 2 + std::rand() % 3;
  const char *dir = std::getenv("DISTLINT_TEST_CKPT");
  cfg.checkpoint_dir = dir ? dir : "/tmp";
  return cfg;
}

static void broadcast_int(int &value) {
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

static void broadcast_config(Config &cfg) { broadcast_int(cfg.epochs); }

static void maybe_checkpoint(const Config &cfg, double weight) {
  if (cfg.checkpoint_dir.empty())
    return;
  double best = 0;
  MPI_Reduce(&weight, &best, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::srand(1234 + rank);
  Config cfg;
  if (rank == 0)
    cfg = read_config();
  broadcast_config(cfg);
  double weight = rank;
  for (int epoch = 0; epoch < cfg.epochs; ++epoch) {
    double sum = 0;
    MPI_Allreduce(&weight, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    weight = 0.5 * weight + 0.1 * sum;
    maybe_checkpoint(cfg, weight);
  }
  if (rank == 0)
    std::printf("%d epochs, checkpoints in %s\n", cfg.epochs,
                cfg.checkpoint_dir.c_str());
  MPI_Finalize();
  return 0;
}
