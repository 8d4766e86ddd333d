// Data that differs by rank is what collectives are for: values, send
// buffers and the per-rank counts of a v-variant may all depend on the rank
// as long as every rank makes the same calls with the same count, root and
// operator.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double local = rank == 0 ? 0.5 : 2.0 * rank;
  double sum = 0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  // Rank r contributes r + 1 samples; Gatherv takes per-rank counts.
  const int mine = rank + 1;
  std::vector<int> samples(mine, rank);
  std::vector<int> counts(size), displs(size), all(size * (size + 1) / 2);
  for (int r = 0, offset = 0; r < size; offset += r + 1, ++r) {
    counts[r] = r + 1;
    displs[r] = offset;
  }
  MPI_Gatherv(samples.data(), mine, MPI_INT, all.data(), counts.data(),
              displs.data(), MPI_INT, 0, MPI_COMM_WORLD);
  std::printf("rank %d sum %g\n", rank, sum);
  MPI_Finalize();
  return 0;
}
