// Each rank accumulates its epoch metrics into a std::map over its own
// shard, and the map starts empty: operator[] adds "loss" at the first
// batch. Rank 0's shard has no batch, so its map stays empty and it skips
// the all-reduce the other ranks wait in.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <map>
#include <string>

struct EpochStats {
  std::map<std::string, double> sums;
  long seen = 0;
};

static double sum(double v) {
  double out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

static void reduce_stats(EpochStats &stats) {
  for (auto &[name, value] : stats.sums)
    value = sum(value); // expect: distlint-rank-divergent-collective
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int batches = rank;
  for (int epoch = 0; epoch < 2; ++epoch) {
    EpochStats stats;
    for (int b = 0; b < batches; ++b) {
      stats.sums["loss"] += 1.0 / (1 + b + rank);
      ++stats.seen;
    }
    reduce_stats(stats);
    if (rank == 0)
      std::printf("epoch %d keys %zu\n", epoch, stats.sums.size());
  }
  MPI_Finalize();
  return 0;
}
