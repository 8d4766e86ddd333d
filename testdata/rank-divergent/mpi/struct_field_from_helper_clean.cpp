// A helper returns the rank's shard of the data as {offset, size}: the
// offset depends on the rank, the size does not. The gather's count is the
// size field of the returned struct, the same on every rank; the offset
// only says where this rank's part starts.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

struct Shard {
  long offset;
  long size;
};

static Shard shardOf(long elements, int rank, int ranks) {
  return {rank * (elements / ranks), elements / ranks};
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  static double params[64 * 64];
  Shard shard = shardOf(64 * ranks, rank, ranks);
  for (long i = 0; i < shard.size; ++i)
    params[shard.offset + i] = rank;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, params, (int)shard.size,
                MPI_DOUBLE, MPI_COMM_WORLD);
  std::printf("rank %d: gathered %ld elements per rank\n", rank, shard.size);
  MPI_Finalize();
  return 0;
}
