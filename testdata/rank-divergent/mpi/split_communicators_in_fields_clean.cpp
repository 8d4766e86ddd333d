// Split communicators kept in fields: a struct a helper fills and returns
// by value, and a class that splits in its constructor and keeps the
// communicator in a member. Only the members of each communicator (the even
// ranks) use it, so the branches on the rank select
// exactly the members. The handles start as MPI_COMM_NULL, which is no
// communicator yet.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

struct Topology {
  int rank = 0;
  MPI_Comm leaders = MPI_COMM_NULL;
};

static Topology build_topology() {
  Topology t;
  MPI_Comm_rank(MPI_COMM_WORLD, &t.rank);
  MPI_Comm_split(MPI_COMM_WORLD, t.rank % 2 == 0 ? 0 : MPI_UNDEFINED, t.rank,
                 &t.leaders);
  return t;
}

class LeaderGroup {
public:
  explicit LeaderGroup(int rank) : leaders_(MPI_COMM_NULL), rank_(rank) {
    MPI_Comm_split(MPI_COMM_WORLD, is_leader() ? 0 : MPI_UNDEFINED, rank,
                   &leaders_);
  }
  ~LeaderGroup() {
    if (is_leader())
      MPI_Comm_free(&leaders_);
  }
  bool is_leader() const { return rank_ % 2 == 0; }
  double leaders_max(double value) const {
    double best = value;
    if (is_leader())
      MPI_Allreduce(&value, &best, 1, MPI_DOUBLE, MPI_MAX, leaders_);
    return best;
  }

private:
  MPI_Comm leaders_;
  int rank_;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Topology topo = build_topology();
  double loss = topo.rank, total = 0;
  if (topo.rank % 2 == 0) {
    MPI_Allreduce(&loss, &total, 1, MPI_DOUBLE, MPI_SUM, topo.leaders);
    MPI_Comm_free(&topo.leaders);
  }
  double best = 0;
  {
    LeaderGroup group(topo.rank);
    best = group.leaders_max(topo.rank);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (topo.rank == 0)
    std::printf("leaders' loss %f, best %f\n", total, best);
  MPI_Finalize();
  return 0;
}
