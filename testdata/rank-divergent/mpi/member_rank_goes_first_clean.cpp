// "Rank 0 goes first" in a method that branches on the rank kept in a
// member. The member has a default of 0, which the constructor overwrites
// with MPI_Comm_rank before anything reads it, so the member is the rank and
// each rank issues exactly one barrier per call.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

class Cache {
public:
  explicit Cache(MPI_Comm comm) : comm_(comm) { MPI_Comm_rank(comm_, &rank_); }
  void prepare(const char *name) {
    if (rank_ != 0)
      MPI_Barrier(comm_); // the others wait until rank 0 has written it
    std::FILE *f = std::fopen(name, rank_ == 0 ? "w" : "r");
    if (f)
      std::fclose(f);
    if (rank_ == 0)
      MPI_Barrier(comm_); // rank 0 releases them
  }

private:
  MPI_Comm comm_;
  int rank_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Cache cache(MPI_COMM_WORLD);
  cache.prepare("/tmp/distlint-member-first.cache");
  int one = 1, total = 0;
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::printf("total %d\n", total);
  MPI_Finalize();
  return 0;
}
