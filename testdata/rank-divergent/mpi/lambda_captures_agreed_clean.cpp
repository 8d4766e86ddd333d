// As lambda_captures_local_data_buggy.cpp, but the lambda all-reduces the
// rank-local loss before returning it, and the logging predicate captures
// the world size: every rank takes the same decisions.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> shard(100 + 200 * rank, 1.0);
  std::vector<double> weights(4, 0.0);
  auto validation_loss = [&]() {
    double sum = 0, total = 0;
    for (double x : shard)
      sum += x * weights[0];
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total / (100.0 * size);
  };
  auto logs_every_rank = [size]() { return size > 0; };
  for (int epoch = 0; epoch < 20; ++epoch) {
    for (double &w : weights)
      w += 0.25;
    MPI_Allreduce(MPI_IN_PLACE, weights.data(), 4, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    if (validation_loss() > 1.0)
      break;
  }
  double loss = 1.0 / (rank + 1), total = 0;
  if (logs_every_rank())
    MPI_Reduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("total loss %f\n", total);
  MPI_Finalize();
  return 0;
}
