// Pipeline parallel as in pipeline_stages_clean.cpp, but the last stage
// tests its own loss before anyone broadcasts it: when it stops, the other
// stages block in the next step's broadcast (and the stage before it in its
// send of the next activations).
// run: mpi buggy
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
    if (rank == size - 1 && loss > 2.0f) break;
    MPI_Bcast(&loss, 1, MPI_FLOAT, size - 1, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
}
