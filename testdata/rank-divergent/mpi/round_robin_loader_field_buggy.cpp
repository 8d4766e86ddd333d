// Samples are dealt round-robin into a loader object's vector field: with
// 103 samples and 2 ranks, rank 0 gets 52 and rank 1 gets 51. The step loop
// asks the loader for full batches of 4 and all-reduces after each: rank 0
// has 13 batches, rank 1 only 12, so rank 0 waits alone in its last
// all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstddef>
#include <cstdio>
#include <vector>

struct Loader {
  std::vector<int> samples;
  std::size_t pos = 0;
  bool next(std::vector<int> &batch) {
    if (pos + 4 > samples.size())
      return false;
    batch.assign(samples.begin() + pos, samples.begin() + pos + 4);
    pos += 4;
    return true;
  }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Loader loader;
  for (int i = rank; i < 103; i += size)
    loader.samples.push_back(i);
  std::vector<int> batch;
  double grad = 0;
  int steps = 0;
  while (loader.next(batch)) {
    grad = batch[0];
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    ++steps;
  }
  std::printf("rank %d ran %d steps\n", rank, steps);
  MPI_Finalize();
  return 0;
}
