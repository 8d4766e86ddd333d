// A helper broadcasts from the root it is given, and the caller passes its
// own rank: every rank believes it is the source and nobody receives.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

static void bcast_from(std::vector<float> &weights, int root) {
  MPI_Bcast(weights.data(), int(weights.size()), MPI_FLOAT, root, // expect: distlint-rank-divergent-collective
            MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> weights(1 << 20, float(rank));
  bcast_from(weights, rank);
  std::printf("rank %d weights[0] = %g\n", rank, weights[0]);
  MPI_Finalize();
  return 0;
}
