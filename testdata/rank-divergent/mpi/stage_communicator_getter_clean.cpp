// Pipeline stages: a topology object splits the world into one
// communicator per stage (even and odd ranks) and hands it out through a
// getter. Each stage reduces its own buffers on its own communicator, so
// the two arms issue different collectives on different communicators.
// run: mpi clean
#include <mpi.h>

class Topology {
public:
  Topology() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    stage_ = rank_ % 2;
    MPI_Comm_split(MPI_COMM_WORLD, stage_, rank_, &stage_comm_);
  }
  ~Topology() { MPI_Comm_free(&stage_comm_); }
  int stage() const { return stage_; }
  MPI_Comm stage_comm() const { return stage_comm_; }

private:
  int rank_ = 0, stage_ = 0;
  MPI_Comm stage_comm_ = MPI_COMM_NULL;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    Topology topo;
    float activations[16] = {0}, head[8] = {0};
    if (topo.stage() == 0)
      MPI_Allreduce(MPI_IN_PLACE, activations, 16, MPI_FLOAT, MPI_SUM,
                    topo.stage_comm());
    else
      MPI_Allreduce(MPI_IN_PLACE, head, 8, MPI_FLOAT, MPI_SUM,
                    topo.stage_comm());
  }
  MPI_Finalize();
  return 0;
}
