// The rank comes from a header-only library's communicator wrapper
// (included as a system header): its inline rank() returns a member that
// MPI_Comm_rank filled in the constructor. Only the first process writes
// the mesh and then waits at the library's barrier; the others never get
// there.
// distlint-args: -isystem ../../thirdparty
// run: mpi buggy
#include <meshlib/parallel.h>
#include <cstdio>

static void write_mesh(const meshlib::parallel::Communicator &comm, int cells) {
  if (comm.rank() == 0) { // expect-note: branch depends on rank
    std::printf("writing %d cells\n", cells);
    comm.barrier(); // expect: distlint-rank-divergent-collective
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    meshlib::parallel::Communicator comm;
    write_mesh(comm, 128);
  }
  MPI_Finalize();
  return 0;
}
