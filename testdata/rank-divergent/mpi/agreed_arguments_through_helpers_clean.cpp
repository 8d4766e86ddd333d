// Helpers issue the collective with the count and root they are given, and
// every caller passes values all ranks agree on: a constant, the world
// size, a value every rank computes alike, the result of an all-reduce, the
// length of a vector whose contents alone differ between ranks. A
// rank-0-only caller passes its own values without anyone else calling.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

static float buf[4096];

static void reduce_n(int n) {
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

static void bcast_from(int root, int n) {
  MPI_Bcast(buf, n, MPI_FLOAT, root, MPI_COMM_WORLD);
}

static void push(std::vector<float> &grads) {
  MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_FLOAT,
                MPI_SUM, MPI_COMM_WORLD);
}

static void self_check(int n) {
  MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_MAX, MPI_COMM_SELF);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  reduce_n(128);
  reduce_n(16 * size);
  int local = rank + 1, longest = 0;
  MPI_Allreduce(&local, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  reduce_n(longest);
  bcast_from(size - 1, 32);
  std::vector<float> grads(256);
  for (size_t i = 0; i < grads.size(); ++i)
    grads[i] = 0.001f * (rank + 1); // Only the contents differ.
  push(grads);
  if (rank == 0)
    self_check(rank + 8);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
