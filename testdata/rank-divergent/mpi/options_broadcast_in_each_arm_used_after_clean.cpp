// Rank 0 picks the schedule (from the clock, a rank-local value), packs it
// and broadcasts it inside its own arm; the others receive in theirs and
// unpack. After the arms meet, every rank loops over the same number of
// epochs and evaluates at the same interval: rank 0 holds what it sent.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <ctime>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int epochs = 0, evalEvery = 1;
  if (rank == 0) {
    epochs = 2 + static_cast<int>(std::time(nullptr) % 3);
    evalEvery = 1 + static_cast<int>(std::time(nullptr) % 2);
    int packed[2] = {epochs, evalEvery};
    MPI_Bcast(packed, 2, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    int packed[2];
    MPI_Bcast(packed, 2, MPI_INT, 0, MPI_COMM_WORLD);
    epochs = packed[0];
    evalEvery = packed[1];
  }
  double w = 1.0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    double g = 0.1 * (rank + 1) * w, sum = 0.0;
    MPI_Allreduce(&g, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    w -= 0.01 * sum;
    if (epoch % evalEvery == 0)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("%d epochs, w %g\n", epochs, w);
  MPI_Finalize();
  return 0;
}
