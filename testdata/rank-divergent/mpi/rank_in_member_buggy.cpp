// A trainer keeps the rank in a member; its checkpoint method makes only the
// chief wait for the others.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

class Trainer {
public:
  explicit Trainer(MPI_Comm comm) : comm_(comm) { MPI_Comm_rank(comm_, &rank_); }
  bool chief() const { return rank_ == 0; }
  void checkpoint(int step) {
    if (chief()) {
      std::printf("saving step %d\n", step);
      MPI_Barrier(comm_); // expect: distlint-rank-divergent-collective
    }
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Trainer trainer(MPI_COMM_WORLD);
  trainer.checkpoint(100);
  MPI_Finalize();
  return 0;
}
