// Gradient accumulation over a shard of rank-dependent length into a
// fixed-size std::array: the loop trip count differs between ranks, but the
// array's length is part of its type, so the all-reduce count `g.size()` is
// the same number on every rank.
// run: mpi clean
#include <mpi.h>

#include <array>
#include <cstdio>
#include <vector>

constexpr int kFeatures = 12;

static void accumulate(const std::vector<double> &shard) {
  std::array<double, kFeatures> g{};
  for (std::size_t i = 0; i < shard.size(); ++i)
    g[i % kFeatures] += shard[i];
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()), MPI_DOUBLE,
                MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> shard(10 + 7 * rank, 1.0);
  for (int step = 0; step < 3; ++step)
    accumulate(shard);
  if (rank == 0)
    std::printf("done\n");
  MPI_Finalize();
  return 0;
}
