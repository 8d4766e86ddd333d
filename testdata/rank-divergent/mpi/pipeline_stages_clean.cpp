// Pipeline parallel: the stage is the rank; activations flow forward and
// gradients backward by blocking send/receive between neighbours (the first
// and last stage skip one side), then the last stage broadcasts the loss
// and every stage tests the same value.
// run: mpi clean
#include <mpi.h>
#include <vector>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<float> act(512), grad(512);
  const int micro = 4;
  for (int step = 0; step < 5; ++step) {
    for (int m = 0; m < micro; ++m) {
      if (rank > 0) MPI_Recv(act.data(), 512, MPI_FLOAT, rank - 1, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (float &a : act) a += 1.0f;
      if (rank < size - 1) MPI_Send(act.data(), 512, MPI_FLOAT, rank + 1, m, MPI_COMM_WORLD);
    }
    for (int m = 0; m < micro; ++m) {
      if (rank < size - 1) MPI_Recv(grad.data(), 512, MPI_FLOAT, rank + 1, 100 + m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (float &g : grad) g *= 0.5f;
      if (rank > 0) MPI_Send(grad.data(), 512, MPI_FLOAT, rank - 1, 100 + m, MPI_COMM_WORLD);
    }
    float loss = rank == size - 1 ? act[0] : 0.0f;
    MPI_Bcast(&loss, 1, MPI_FLOAT, size - 1, MPI_COMM_WORLD);
    if (loss > 1e6f) break;
  }
  MPI_Finalize();
}
