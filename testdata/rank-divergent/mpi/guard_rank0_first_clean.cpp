// "Rank 0 goes first" as a scoped guard: the constructor makes the other
// ranks wait, the destructor (at the end of rank 0's preparation) releases
// them. Each rank issues one barrier over the guard's lifetime, and nothing
// else is issued while the guard lives. The guard reads its rank into a
// member that has a default of 0; the constructor overwrites it first.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

class RankZeroFirst {
public:
  explicit RankZeroFirst(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    if (rank_ != 0)
      MPI_Barrier(comm_); // the others wait for rank 0's cache
  }
  ~RankZeroFirst() {
    if (rank_ == 0)
      MPI_Barrier(comm_); // rank 0 releases them
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
};

static void prepare_cache(const char *name) {
  std::FILE *f = std::fopen(name, "a");
  if (f)
    std::fclose(f);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    RankZeroFirst first(MPI_COMM_WORLD);
    prepare_cache("/tmp/distlint-guard-first.cache");
  }
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
