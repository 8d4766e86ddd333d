// Objects built from the rank, reached through pointers that every rank
// holds: the address of a local (&writer), a new object, and a null test on
// each. What the objects hold differs between ranks; whether the pointers
// are null does not, so every rank reaches each barrier.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

struct Writer {
  bool chief;
  void flush() { MPI_Barrier(MPI_COMM_WORLD); }
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Writer local{rank == 0};
  Writer *here = &local;
  if (here != nullptr)
    here->flush();
  Writer *heap = new Writer{rank == 0};
  if (heap)
    heap->flush();
  if (heap->chief)
    std::printf("chief flushed\n");
  delete heap;
  MPI_Finalize();
  return 0;
}
