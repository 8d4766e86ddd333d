// Each rank passes itself as the broadcast root, so every rank believes it
// is the source and nobody receives.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> weights(1 << 20, float(rank));
  MPI_Bcast(weights.data(), int(weights.size()), MPI_FLOAT, rank, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("rank %d weights[0] = %g\n", rank, weights[0]);
  MPI_Finalize();
  return 0;
}
