// "Rank 0 goes first" inside a helper that is given the rank: the others
// wait until rank 0 has written the cache, then rank 0 releases them. The
// helper branches on its parameter, and every call passes the rank (also
// through a second helper that hands its own parameter on), so each rank
// issues exactly one barrier per call.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void prepare_cache(int rank, const char *name) {
  if (rank != 0)
    MPI_Barrier(MPI_COMM_WORLD); // the others wait for rank 0
  std::FILE *f = std::fopen(name, rank == 0 ? "w" : "r");
  if (f)
    std::fclose(f);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // rank 0 releases them
}

static void prepare_all(int me) {
  prepare_cache(me, "/tmp/distlint-goes-first-a.cache");
  prepare_cache(me, "/tmp/distlint-goes-first-b.cache");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  prepare_all(rank);
  double loss = 1.0 + rank, total = 0;
  MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
