// Seven data files dealt round-robin into one list per rank, as in
// shard_chosen_by_rank_buggy.cpp, but the ranks first agree on how many
// steps to run (the shortest list): each rank reads its own files, and all
// of them issue the same number of all-reduces.
// run: mpi clean
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

  const std::vector<std::string> &mine = files_of[rank];
  int steps = (int)mine.size();
  MPI_Allreduce(MPI_IN_PLACE, &steps, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);

  std::vector<float> grads(128, 0.0f);
  for (int step = 0; step < steps; ++step) {
    grads[0] = float(mine[step].size());
    MPI_Allreduce(MPI_IN_PLACE, grads.data(), (int)grads.size(), MPI_FLOAT,
                  MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
