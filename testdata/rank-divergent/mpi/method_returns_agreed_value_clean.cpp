// Each rank's trainer object holds its rank and its own validation score;
// the method that picks the best member all-reduces (MAXLOC) what the object
// holds and returns the agreed winner. The object differs between ranks, but
// what it holds does not reach the result: every rank stops at the same round.
// run: mpi clean
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
    struct {
      float score;
      int rank;
    } mine{score_, rank_}, best{};
    MPI_Allreduce(&mine, &best, 1, MPI_FLOAT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    return best.rank;
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
    if (me.best_member() == 0)
      break;
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0)
    std::printf("stopped at round %d\n", round);
  MPI_Finalize();
  return 0;
}
