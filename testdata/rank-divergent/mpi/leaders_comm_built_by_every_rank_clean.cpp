// A two-level all-reduce whose leaders communicator every rank builds with
// a split (the non-leaders get MPI_COMM_NULL): the field's default is the
// null communicator, so whatever it holds when the leaders' stage runs is
// the leaders' own communicator, and only its members issue the all-reduce.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

struct Topology {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm leaders = MPI_COMM_NULL;
  int local_rank = 0;
  int nodes = 1;
};

static Topology discover() {
  Topology t;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
                      &t.node);
  MPI_Comm_rank(t.node, &t.local_rank);
  int leader = t.local_rank == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &t.nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm_split(MPI_COMM_WORLD, leader ? 0 : MPI_UNDEFINED, rank, &t.leaders);
  return t;
}

static void allreduce_two_level(const Topology &t, std::vector<float> &buf) {
  const int n = int(buf.size());
  if (t.local_rank == 0)
    MPI_Reduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM, 0, t.node);
  else
    MPI_Reduce(buf.data(), nullptr, n, MPI_FLOAT, MPI_SUM, 0, t.node);
  if (t.local_rank == 0)
    MPI_Allreduce(MPI_IN_PLACE, buf.data(), n, MPI_FLOAT, MPI_SUM,
                  t.leaders);
  MPI_Bcast(buf.data(), n, MPI_FLOAT, 0, t.node);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Topology topo = discover();
  std::vector<float> grads(64, 1.0f);
  for (int step = 0; step < 3; ++step)
    allreduce_two_level(topo, grads);
  std::printf("grads[0] = %g\n", grads[0]);
  MPI_Finalize();
  return 0;
}
