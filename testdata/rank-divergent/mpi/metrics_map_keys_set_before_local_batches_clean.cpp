// Each rank accumulates its epoch metrics into a std::map over its own
// shard (3 + rank batches: unequal). operator[] adds a missing key, but
// every key the loop names was put in the map before the loop (the
// assignment from a list, the declaration), so every rank's map holds the
// same keys and the reductions over them match.
// run: mpi clean
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
    value = sum(value);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int batches = 3 + rank;
  for (int epoch = 0; epoch < 2; ++epoch) {
    EpochStats stats;
    stats.sums = {{"loss", 0.0}, {"acc", 0.0}};
    std::map<int, long> per_class{{0, 0}, {1, 0}};
    for (int b = 0; b < batches; ++b) {
      stats.sums["loss"] += 1.0 / (1 + b + rank);
      stats.sums["acc"] += b % 2;
      if (b % 2)
        per_class[1] += 1;
      else
        per_class[0] += 1;
      ++stats.seen;
    }
    reduce_stats(stats);
    for (auto &[label, count] : per_class) {
      long total = 0;
      MPI_Allreduce(&count, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      count = total;
    }
    if (rank == 0)
      std::printf("epoch %d loss %.3f acc %.1f class0 %ld\n", epoch,
                  stats.sums["loss"], stats.sums["acc"], per_class[0]);
  }
  MPI_Finalize();
  return 0;
}
