// Elements written through the reference of a range-for take the value
// written: `for (auto &w : weights) w = rank;` makes the weights differ
// between ranks as `weights[i] = rank` would, and so does a scaled write
// into a struct's field. Branches on those elements split the ranks.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

struct Buckets {
  std::vector<int> sizes;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> weights(16);
  for (auto &w : weights)
    w = float(rank);
  if (weights[0] > 0.5f)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  Buckets b;
  b.sizes.assign(4, 1);
  for (int &n : b.sizes)
    n *= rank + 1;
  for (int i = 0; i < b.sizes[0]; ++i)
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
