// A header-only library (included as a system header) gives the rank, a
// broadcast and a max-reduction. The refinement level is read on the first
// process only, but the library broadcast hands it to everyone before the
// loop, and the local cell count is maxed over all processes: both loops run
// the same number of times everywhere.
// distlint-args: -isystem ../../thirdparty
// run: mpi clean
#include <meshlib/parallel.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  {
    meshlib::parallel::Communicator comm;
    int levels = 0;
    if (comm.rank() == 0) {
      const char *text = std::getenv("MESH_LEVELS");
      levels = text ? std::atoi(text) : 2;
    }
    comm.broadcast(levels);
    for (int level = 0; level < levels; ++level)
      comm.barrier();

    int local_cells = 10 + static_cast<int>(comm.rank()) * 3;
    int most_cells = local_cells;
    comm.max(most_cells);
    for (int cell = 0; cell < most_cells; cell += 4) {
      int owned = cell < local_cells ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &owned, 1, MPI_INT, MPI_SUM, comm.get());
    }
    if (comm.rank() == 0)
      std::printf("%d levels, at most %d cells\n", levels, most_cells);
  }
  MPI_Finalize();
  return 0;
}
