// A helper returns a gradient buffer whose elements it computes from the
// rank's data offset, but it also trims the buffer to the samples left
// after that offset: the count the caller passes, size(), is 16 on rank 0
// and 12 on rank 1, and the all-reduce fails on a truncated message.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <vector>

static std::vector<double> gradientAt(int start, bool real) {
  std::vector<double> g(16, 0.0);
  if (real)
    for (size_t i = 0; i < g.size(); ++i)
      g[i] = 0.001 * (start + static_cast<int>(i));
  if (start > 0)
    g.resize(g.size() - static_cast<size_t>(start));
  std::vector<double> copy = g;
  return copy;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<double> g = gradientAt(rank * 4, rank % 2 == 0);
  MPI_Allreduce(MPI_IN_PLACE, g.data(), static_cast<int>(g.size()), MPI_DOUBLE, // expect: distlint-rank-divergent-collective
                MPI_SUM, MPI_COMM_WORLD);
  std::printf("%g\n", g[0]);
  MPI_Finalize();
  return 0;
}
