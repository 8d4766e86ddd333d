// The evaluation is a lambda that captures the rank's own shard by
// reference: the validation loss it returns is rank-local, and the loop
// leaves on it. Rank 1's shard is longer and scores higher, so rank 1 stops
// after the first all-reduce while rank 0 waits in the second.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> shard(100 + 200 * rank, 1.0);
  std::vector<double> weights(4, 0.0);
  auto validation_loss = [&]() {
    double sum = 0;
    for (double x : shard)
      sum += x * weights[0];
    return sum / 100.0;
  };
  for (int epoch = 0; epoch < 20; ++epoch) {
    for (double &w : weights)
      w += 0.25;
    MPI_Allreduce(MPI_IN_PLACE, weights.data(), 4, MPI_DOUBLE, MPI_SUM, // expect: distlint-rank-divergent-collective
                  MPI_COMM_WORLD);
    if (validation_loss() > 1.0)
      break;
  }
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
