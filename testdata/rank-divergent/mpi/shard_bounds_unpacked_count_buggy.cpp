// Each rank gets a contiguous share of 2 * size + 1 rows, described by a
// pair (first row, number of rows) unpacked with a structured binding. The
// low ranks get one row more, and each rank all-reduces as many values as
// it has rows: the counts differ and the all-reduce fails.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <utility>
#include <vector>

static std::pair<int, int> rows_of(int rank, int size, int total) {
  int base = total / size, extra = total % size;
  int first = rank * base + (rank < extra ? rank : extra);
  return {first, base + (rank < extra ? 1 : 0)};
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto [first, count] = rows_of(rank, size, 2 * size + 1);
  std::vector<double> rows(count);
  for (int i = 0; i < count; ++i)
    rows[i] = first + i;
  MPI_Allreduce(MPI_IN_PLACE, rows.data(), count, MPI_DOUBLE, MPI_SUM, // expect: distlint-rank-divergent-collective
                MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("row sum %.1f\n", rows[0]);
  MPI_Finalize();
  return 0;
}
