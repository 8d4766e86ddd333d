// Each rank draws its own number of augmented batches from the hardware
// random source: no rank id is involved, yet the ranks run different numbers
// of all-reduces. (The two draws coincide with probability 1e-5.)
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <random>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  std::random_device entropy;
  const unsigned batches = 1 + entropy() % 100000;
  double grad = 1.0, sum = 0;
  for (unsigned b = 0; b < batches; ++b)
    MPI_Allreduce(&grad, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::printf("ran %u batches, sum %g\n", batches, sum);
  MPI_Finalize();
  return 0;
}
