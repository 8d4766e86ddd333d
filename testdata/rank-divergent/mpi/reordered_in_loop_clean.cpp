// Every rank runs the same loop; inside, the rank-dependent part is only
// local work, and both arms issue barrier then all-reduce.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float w = 1.0f;
  auto exchange = [&](float g) {
    float sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&g, &sum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    return sum / size;
  };
  for (int iter = 0; iter < 4; ++iter) {
    float g = 0;
    if (rank == 0) {
      g = 2.0f * iter;
      w -= 0.1f * exchange(g);
    } else {
      g = 1.0f * iter;
      w -= 0.1f * exchange(g);
    }
  }
  std::printf("rank %d w %g\n", rank, w);
  MPI_Finalize();
  return 0;
}
