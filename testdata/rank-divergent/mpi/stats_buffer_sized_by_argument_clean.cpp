// A helper packs this rank's loss and accuracy into a buffer whose length
// the caller gives (the number of metrics, the same everywhere) and sums
// it: the rank-local values reach the elements only, never the count.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

static std::vector<double> sum_metrics(int n, double loss, double accuracy) {
  std::vector<double> buf(n, 0.0);
  buf[0] = loss;
  if (n > 1)
    buf[1] = accuracy;
  MPI_Allreduce(MPI_IN_PLACE, buf.data(), static_cast<int>(buf.size()),
                MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return buf;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double loss = 1.0 / (rank + 1);
  const double accuracy = 0.5 + 0.1 * rank;
  std::vector<double> total = sum_metrics(2, loss, accuracy);
  if (rank == 0)
    std::printf("loss %.3f accuracy %.3f\n", total[0], total[1]);
  MPI_Finalize();
  return 0;
}
