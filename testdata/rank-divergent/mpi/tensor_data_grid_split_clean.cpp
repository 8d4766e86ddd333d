// A tensor x data parallel grid: tensor groups of consecutive ranks and data
// groups across them. Only the first replica (dp_index == 0) reduces inside
// its tensor group: every member of that group has the same dp_index (the
// split's colour), so the branch is uniform within the communicator the
// collective runs on.
// run: mpi clean
#include <mpi.h>
#include <vector>
#include <cstdio>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, world;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const int tp = 2;
  if (world % tp != 0) MPI_Abort(MPI_COMM_WORLD, 1);
  int dp_index = rank / tp, tp_rank = rank % tp;
  MPI_Comm tp_comm, dp_comm;
  MPI_Comm_split(MPI_COMM_WORLD, dp_index, tp_rank, &tp_comm);
  MPI_Comm_split(MPI_COMM_WORLD, tp_rank, dp_index, &dp_comm);
  std::vector<float> shard(1024, 1.0f), full(2048);
  for (int step = 0; step < 10; ++step) {
    MPI_Allgather(shard.data(), 1024, MPI_FLOAT, full.data(), 1024, MPI_FLOAT, tp_comm);
    if (dp_index == 0) {
      // only the first replica logs the gathered activations' norm, reduced within its tp group
      float local = full[0], norm = 0;
      MPI_Allreduce(&local, &norm, 1, MPI_FLOAT, MPI_SUM, tp_comm);
      if (tp_rank == 0) printf("step %d norm %f\n", step, norm);
    }
    MPI_Allreduce(MPI_IN_PLACE, shard.data(), 1024, MPI_FLOAT, MPI_SUM, dp_comm);
  }
  MPI_Comm_free(&tp_comm);
  MPI_Comm_free(&dp_comm);
  MPI_Finalize();
}
