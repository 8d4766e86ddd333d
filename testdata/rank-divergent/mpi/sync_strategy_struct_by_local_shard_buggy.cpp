// A trainer picks its gradient synchronization from the memory its local
// shard needs: a sharded reduce-scatter + all-gather when the activations
// are large, a plain all-reduce otherwise. The strategy travels as an
// aggregate (a name and a std::function) returned by value. The shard
// sizes differ by one sample between ranks, so with 7 samples over 2 ranks
// rank 0 reduce-scatters while rank 1 all-reduces: they never meet.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <functional>

using SyncFn = std::function<void(double *, int)>;

struct SyncStrategy {
  const char *name;
  SyncFn sync;
};

static SyncStrategy pick_strategy(long activation_bytes, int world) {
  if (activation_bytes > 3 * 1024) {
    return {"sharded", [world](double *grad, int n) {
              int shard = n / world;
              MPI_Reduce_scatter_block(MPI_IN_PLACE, grad, shard, MPI_DOUBLE,
                                       MPI_SUM, MPI_COMM_WORLD);
              MPI_Allgather(MPI_IN_PLACE, shard, MPI_DOUBLE, grad, shard,
                            MPI_DOUBLE, MPI_COMM_WORLD);
            }};
  }
  return {"allreduce", [](double *grad, int n) {
            MPI_Allreduce(MPI_IN_PLACE, grad, n, MPI_DOUBLE, MPI_SUM,
                          MPI_COMM_WORLD);
          }};
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);

  const int samples = 7;
  int local_samples = samples / world + (rank < samples % world ? 1 : 0);
  long activation_bytes = 1024L * local_samples;
  const SyncStrategy strategy = pick_strategy(activation_bytes, world);

  double grad[8] = {0};
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < 8; ++i)
      grad[i] = rank + step;
    strategy.sync(grad, 8); // expect: distlint-rank-divergent-collective
  }
  if (rank == 0)
    std::printf("synchronized with %s\n", strategy.name);
  MPI_Finalize();
  return 0;
}
