// Environment variables other than the rank variables are identical on
// every rank; the world size from the launcher is uniform too.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *sync = std::getenv("DISTLINT_EXTRA_SYNC");
  if (sync && std::atoi(sync) == 1)
    MPI_Barrier(MPI_COMM_WORLD);
  const char *world = std::getenv("OMPI_COMM_WORLD_SIZE");
  const int world_size = world ? std::atoi(world) : 1;
  if (world_size > 1)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("world size %d\n", world_size);
  MPI_Finalize();
  return 0;
}
