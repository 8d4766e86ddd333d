// A helper all-reduces a vector with its length as the count; the caller
// passes a vector whose length differs between ranks (its contents alone
// differing would be fine), so the ranks pass different counts.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

static void push(std::vector<float> &grads) {
  MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_FLOAT, // expect: distlint-rank-divergent-collective
                MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> local(16 * (rank + 1), 1.0f); // A length per rank.
  push(local);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
