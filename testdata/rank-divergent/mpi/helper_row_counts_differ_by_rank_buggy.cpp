// The embedding table is shared by rows: the helper takes a row count and
// broadcasts that many rows of kDim floats. Rank 0 sends its whole table;
// the workers, which keep only the rows they cache, ask for fewer rows. The
// helper's count is an expression of its parameter (`rows * kDim`), decided
// at each call: 4096 rows against 1024 is a count mismatch.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

constexpr int kVocabRows = 4096;
constexpr int kCachedRows = 1024;
constexpr int kDim = 16;

static void share_rows(std::vector<float> &table, int rows) {
  MPI_Bcast(table.data(), rows * kDim, MPI_FLOAT, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> table(std::size_t(kVocabRows) * kDim, 0.0f);
  if (rank == 0) {
    for (std::size_t i = 0; i < table.size(); ++i)
      table[i] = float(i % 97) / 97.0f;
    share_rows(table, kVocabRows); // expect: distlint-rank-divergent-collective
  } else {
    share_rows(table, kCachedRows);
  }
  std::printf("rank %d: table[1] = %g\n", rank, table[1]);
  MPI_Finalize();
  return 0;
}
