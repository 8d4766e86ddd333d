// A checkpointer is given the rank by its constructor and keeps it in a
// member; only rank 0 enters the barrier that is meant to wait for the
// others' shards. The others go on to the all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>

class Checkpointer {
public:
  explicit Checkpointer(int rank) : rank_(rank) {}
  void save(int step) {
    if (rank_ == 0) {
      std::printf("step %d saved\n", step);
      MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    }
  }

private:
  int rank_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Checkpointer ckpt(rank);
  ckpt.save(10);
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
