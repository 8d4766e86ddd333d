// A shard reader keeps its samples and a cursor; each rank fills its reader
// with the records of its own shard (rank 0 gets the one left over when the
// 9 per rank do not split evenly), then trims it to the shortest shard, agreed
// with an all-reduce (MPI_MIN), before it all-reduces one batch sum per step
// while the reader has a whole batch left: every rank runs the same steps.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

struct ShardReader {
  std::vector<double> samples;
  size_t cursor = 0, batch = 2;
  bool more() const { return cursor + batch <= samples.size(); }
  size_t advance() {
    size_t at = cursor;
    cursor += batch;
    return at;
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int records = 9 * size + 1; // one record left over
  const int mine = records / size + (rank < records % size ? 1 : 0);

  ShardReader reader;
  reader.samples.assign(mine, 0.25 * (rank + 1));
  int shortest = 0;
  MPI_Allreduce(&mine, &shortest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  reader.samples.resize(shortest);
  double total = 0.0;
  while (reader.more()) {
    size_t at = reader.advance();
    double sum = 0.0;
    for (size_t i = at; i < at + reader.batch; ++i)
      sum += reader.samples[i];
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    total += sum;
  }
  if (rank == 0)
    std::printf("total %.2f\n", total);
  MPI_Finalize();
  return 0;
}
