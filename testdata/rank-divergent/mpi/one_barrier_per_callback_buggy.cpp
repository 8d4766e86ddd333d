// Each evaluation callback runs between two barriers so that ranks time it
// together; rank 0 registers one more callback (a local report) than the
// others. Which callables a container holds is the same code everywhere,
// but how many it holds depends on the rank: rank 0 issues one barrier more.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  std::vector<std::function<void()>> callbacks;
  callbacks.push_back([] { /* evaluate the local shard */ });
  if (rank == 0)
    callbacks.push_back([] { std::printf("report\n"); });

  for (auto &callback : callbacks) { // expect-note: loop condition depends on rank
    callback();
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
  return 0;
}
