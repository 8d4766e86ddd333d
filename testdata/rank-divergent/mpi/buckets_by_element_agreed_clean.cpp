// Gradient buckets are all-reduced one by one, skipping empty ones. Each
// rank fills its buckets with its own values, but which buckets are empty
// is the same everywhere (their sizes come from the model), and the loop
// over the elements tests only the sizes; after an all-reduce the contents
// agree, so the element test in the second pass is the same on every rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int sizes[4] = {8, 0, 4, 8};
  std::vector<std::vector<float>> buckets;
  for (int size : sizes)
    buckets.push_back(std::vector<float>(size, 1.0f + rank));
  int reduced = 0;
  for (auto &bucket : buckets) {
    if (bucket.empty())
      continue;
    MPI_Allreduce(MPI_IN_PLACE, bucket.data(), static_cast<int>(bucket.size()),
                  MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    ++reduced;
  }
  std::printf("rank %d reduced %d buckets\n", rank, reduced);
  MPI_Finalize();
  return 0;
}
