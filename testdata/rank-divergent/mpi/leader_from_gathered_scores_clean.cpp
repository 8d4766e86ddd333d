// The leaderboard refreshed before every election: the argmax (max_element
// over the all-gathered board) reads the same scores on every rank, so
// every rank names the same broadcast root.
// run: mpi clean
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <vector>

class Leaderboard {
public:
  explicit Leaderboard(int world) : scores_(world, 0.0) {}
  void refresh(double mine) {
    MPI_Allgather(&mine, 1, MPI_DOUBLE, scores_.data(), 1, MPI_DOUBLE,
                  MPI_COMM_WORLD);
  }
  int leader() const {
    return static_cast<int>(std::distance(
        scores_.begin(), std::max_element(scores_.begin(), scores_.end())));
  }

private:
  std::vector<double> scores_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  Leaderboard board(world);
  std::vector<double> weights(16, 0.1 * rank);
  for (int round = 1; round <= 8; ++round) {
    board.refresh(1.0 / (1.0 + round + rank));
    const int root = board.leader();
    MPI_Bcast(weights.data(), 16, MPI_DOUBLE, root, MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("w0 %g\n", weights[0]);
  MPI_Finalize();
  return 0;
}
