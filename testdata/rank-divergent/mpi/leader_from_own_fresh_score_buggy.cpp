// Population-based training with a cached leaderboard: each rank writes its
// own fresh score into its copy every round, but the board is all-gathered
// only every fourth round. In between, each rank's argmax (max_element over
// the board) sees its own score beside stale zeros and elects itself, so
// the broadcast roots differ: every rank sends as a root and none receives.
// run: mpi buggy
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <vector>

class Leaderboard {
public:
  Leaderboard(int rank, int world) : rank_(rank), scores_(world, 0.0) {}
  void record_own(double s) { scores_[rank_] = s; }
  void refresh() {
    double mine = scores_[rank_];
    MPI_Allgather(&mine, 1, MPI_DOUBLE, scores_.data(), 1, MPI_DOUBLE,
                  MPI_COMM_WORLD);
  }
  int leader() const {
    return static_cast<int>(std::distance(
        scores_.begin(), std::max_element(scores_.begin(), scores_.end())));
  }

private:
  int rank_;
  std::vector<double> scores_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  Leaderboard board(rank, world);
  const int n = 1 << 18; // past the eager limit: a root waits for receivers
  std::vector<double> weights(n, 0.1 * rank);
  for (int round = 1; round <= 8; ++round) {
    board.record_own(1.0 / (1.0 + round + rank));
    if (round % 4 == 0)
      board.refresh();
    if (round % 2 == 0) {
      const int root = board.leader();
      MPI_Bcast(weights.data(), n, MPI_DOUBLE, root, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    }
  }
  if (rank == 0)
    std::printf("w0 %g\n", weights[0]);
  MPI_Finalize();
  return 0;
}
