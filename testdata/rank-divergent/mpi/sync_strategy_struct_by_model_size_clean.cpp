// The same trainer picks its gradient synchronization from the model's
// size, which every rank knows alike: all ranks take the same strategy and
// issue the same collectives, whichever it is. The strategy travels as an
// aggregate (a name and a std::function) returned by value.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <functional>

using SyncFn = std::function<void(double *, int)>;

struct SyncStrategy {
  const char *name;
  SyncFn sync;
};

static SyncStrategy pick_strategy(long parameter_bytes, int world) {
  if (parameter_bytes > 32 && world > 1) {
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

  const int parameters = 8;
  const SyncStrategy strategy =
      pick_strategy(long(sizeof(double)) * parameters, world);

  double grad[parameters] = {0};
  for (int step = 0; step < 3; ++step) {
    for (int i = 0; i < parameters; ++i)
      grad[i] = rank + step;
    strategy.sync(grad, parameters);
  }
  if (rank == 0)
    std::printf("synchronized with %s\n", strategy.name);
  MPI_Finalize();
  return 0;
}
