// Roots that every rank computes alike: a loop variable over the ranks, the
// last rank, and a root chosen from the world size.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int block[4] = {rank, rank, rank, rank};
  for (int root = 0; root < size; ++root)
    MPI_Bcast(block, 4, MPI_INT, root, MPI_COMM_WORLD);
  long mine = rank, total = 0;
  MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, size - 1, MPI_COMM_WORLD);
  const int root = size > 1 ? 1 : 0;
  MPI_Bcast(&total, 1, MPI_LONG, root, MPI_COMM_WORLD);
  std::printf("rank %d block[0] = %d total %ld\n", rank, block[0], total);
  MPI_Finalize();
  return 0;
}
