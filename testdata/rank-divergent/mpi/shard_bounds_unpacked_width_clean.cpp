// Each rank gets a block of a global array described by a pair (where its
// block starts, how wide blocks are), unpacked with a structured binding.
// The start differs between ranks; the width is the same everywhere, and
// only the width is the count of the all-reduce.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <utility>
#include <vector>

static std::pair<int, int> block_of(int rank, int width) {
  return {rank * width, width};
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  auto [first, width] = block_of(rank, 16);
  std::vector<double> block(width);
  for (int i = 0; i < width; ++i)
    block[i] = 0.5 * (first + i);
  MPI_Allreduce(MPI_IN_PLACE, block.data(), width, MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("block[0] summed over %d ranks: %.1f\n", size, block[0]);
  MPI_Finalize();
  return 0;
}
