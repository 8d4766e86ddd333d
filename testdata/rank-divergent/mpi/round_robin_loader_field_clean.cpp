// As round_robin_loader_field_buggy.cpp, but the ranks agree first on the
// smallest number of full batches (an all-reduce with MPI_MIN) and every
// rank runs exactly that many steps.
// run: mpi clean
#include <mpi.h>
#include <cstddef>
#include <cstdio>
#include <vector>

struct Loader {
  std::vector<int> samples;
  std::size_t pos = 0;
  void next(std::vector<int> &batch) {
    batch.assign(samples.begin() + pos, samples.begin() + pos + 4);
    pos += 4;
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
  int local_batches = static_cast<int>(loader.samples.size() / 4), batches = 0;
  MPI_Allreduce(&local_batches, &batches, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::vector<int> batch;
  double grad = 0;
  for (int step = 0; step < batches; ++step) {
    loader.next(batch);
    grad = batch[0];
    MPI_Allreduce(MPI_IN_PLACE, &grad, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  std::printf("rank %d ran %d steps\n", rank, batches);
  MPI_Finalize();
  return 0;
}
