// Each rank's trainer object holds its rank and its own validation score;
// the method that should pick the best member all-reduces the scores but
// returns the object's own rank when its score is the best it has seen
// locally. What the object holds reaches the result: ranks stop at
// different rounds and the others wait in the barrier.
// run: mpi buggy
#include <mpi.h>
#include <cmath>
#include <cstdio>

class Member {
public:
  explicit Member(int rank) : rank_(rank) {}
  void train(int round) {
    score_ = 1.0f / (1.0f + std::fabs(std::sin(float(round * (rank_ + 1)))));
  }
  int best_member() const {
    float best = 0.0f;
    MPI_Allreduce(&score_, &best, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
    return score_ == best ? rank_ : -1;
  }

private:
  int rank_;
  float score_ = 0.0f;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Member me(rank);
  int round = 0;
  for (; round < 50; ++round) {
    me.train(round);
    if (me.best_member() == 0) // expect: distlint-rank-divergent-collective
      break;
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  }
  if (rank == 0)
    std::printf("stopped at round %d\n", round);
  MPI_Finalize();
  return 0;
}
