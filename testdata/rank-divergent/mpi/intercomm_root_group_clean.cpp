// A broadcast across an inter-communicator: in the sending group the root
// passes MPI_ROOT and its peers MPI_PROC_NULL, the receiving group passes
// the root's rank in the remote group. The root argument differs between
// ranks by design there, on a communicator that a helper hands back.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

// Lower half and upper half of the world, joined by an inter-communicator.
static MPI_Comm join_halves(bool left, int size) {
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, left ? 0 : 1, 0, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, left ? size / 2 : 0, 11,
                       &inter);
  MPI_Comm_free(&half);
  return inter;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    std::fprintf(stderr, "needs two processes\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  bool left = rank < size / 2;
  MPI_Comm inter = join_halves(left, size);

  int value = 0, root = 0;
  if (left) {
    root = rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    value = 815;
  }
  MPI_Bcast(&value, 1, MPI_INT, root, inter);
  if (!left && value != 815)
    std::printf("rank %d got %d\n", rank, value);

  MPI_Comm_free(&inter);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
