// A helper returns a gradient buffer of the model's length whose elements
// it computes from the rank's data offset; the caller all-reduces it with
// its size() as the count. The offset reaches the elements only (through a
// copy of the buffer, returned by value), so every rank passes 16.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <vector>

static std::vector<double> gradientAt(int start, bool real) {
  std::vector<double> g(16, 0.0);
  if (real)
    for (size_t i = 0; i < g.size(); ++i)
      g[i] = 0.001 * (start + static_cast<int>(i));
  std::vector<double> copy = g;
  return copy;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> g = gradientAt(rank * 4, rank % 2 == 0);
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()), MPI_DOUBLE,
                MPI_SUM, MPI_COMM_WORLD);
  std::printf("%g\n", g[0]);
  MPI_Finalize();
  return 0;
}
