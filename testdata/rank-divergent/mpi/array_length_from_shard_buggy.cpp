// The same accumulation into a vector sized by the shard: its length, and so
// the all-reduce count `g.size()`, is this rank's shard length. Ranks with
// longer shards send more elements than the others expect.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

static void accumulate(const std::vector<double> &shard) {
  std::vector<double> g(shard.size(), 0.0);
  for (std::size_t i = 0; i < shard.size(); ++i)
    g[i] += shard[i];
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()), MPI_DOUBLE, // expect: distlint-rank-divergent-collective
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
