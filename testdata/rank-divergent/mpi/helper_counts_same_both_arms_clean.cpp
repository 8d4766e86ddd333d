// The coordinator fills the vocabulary table and publishes it through a
// helper that broadcasts as many values as it is told; the workers call the
// same helper with the same count to receive it. The arms differ in what they
// do before, not in what they pass: every rank broadcasts the same count.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

constexpr int kVocabRows = 4096;
constexpr int kDim = 16;

static void share_values(std::vector<float> &table, int values) {
  MPI_Bcast(table.data(), values, MPI_FLOAT, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> table(std::size_t(kVocabRows) * kDim, 0.0f);
  if (rank == 0) {
    for (std::size_t i = 0; i < table.size(); ++i)
      table[i] = float(i % 97) / 97.0f;
    share_values(table, kVocabRows * kDim);
  } else {
    share_values(table, kVocabRows * kDim);
  }
  std::printf("rank %d: table[1] = %g\n", rank, table[1]);
  MPI_Finalize();
  return 0;
}
