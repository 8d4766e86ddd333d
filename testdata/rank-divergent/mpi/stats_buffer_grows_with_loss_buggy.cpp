// A helper packs this rank's metrics and, when its own loss is high, one
// more diagnostic value: the buffer's length, and with it the all-reduce's
// count, now follows a rank-local value.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

static double sum_metrics(int n, double loss) {
  std::vector<double> buf(n, 0.0);
  buf[0] = loss;
  if (loss > 0.6)
    buf.push_back(loss * loss); // A diagnostic only high-loss ranks add.
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()), // expect: distlint-rank-divergent-collective
                MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return buf[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double loss = 1.0 / (rank + 1);
  const double total = sum_metrics(2, loss);
  if (rank == 0)
    std::printf("loss %.3f\n", total);
  MPI_Finalize();
  return 0;
}
