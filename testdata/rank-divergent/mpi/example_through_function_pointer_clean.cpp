// A driver runs the example it is handed through a function pointer, giving
// it the rank and the world size. The pointer's target is the program's own
// code, defined elsewhere: like a function declared here and defined in
// another file, its result is not taken to depend on the rank it is given,
// so the error test before the barrier is the same on every rank.
// run: mpi clean
#include <mpi.h>
#include <cstddef>
#include <cstdio>

struct Context {
  int rank = 0, ranks = 1;
};

static int runParallel(Context &ctx, void *(*example)(int, int)) {
  if (example(ctx.rank, ctx.ranks) != nullptr)
    return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

static void *hello(int rank, int ranks) {
  std::printf("rank %d of %d\n", rank, ranks);
  return nullptr;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Context ctx;
  MPI_Comm_rank(MPI_COMM_WORLD, &ctx.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ctx.ranks);
  int rc = runParallel(ctx, hello);
  MPI_Finalize();
  return rc;
}
