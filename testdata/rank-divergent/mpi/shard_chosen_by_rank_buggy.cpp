// Seven data files are dealt round-robin into one list per rank; each rank
// then trains one step per file of its own list. The lists are built alike
// on every rank, but the one a rank picks by its rank has its own length:
// with 2 ranks rank 0 has 4 files and rank 1 has 3, and rank 0 waits in its
// fourth all-reduce forever.
// run: mpi buggy
#include <mpi.h>

#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);

  std::vector<std::vector<std::string>> files_of(world);
  for (int i = 0; i < 7; ++i)
    files_of[i % world].push_back("shard-" + std::to_string(i) + ".bin");

  std::vector<float> grads(128, 0.0f);
  for (const std::string &path : files_of[rank]) { // expect-note: loop condition depends on rank
    grads[0] = float(path.size());
    MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  MPI_Finalize();
  return 0;
}
