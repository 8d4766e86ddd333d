// Range-for element writes that keep the elements the same on every rank:
// a constant, a value every rank computes alike, and a value agreed by an
// all-reduce before it is written. Reading them decides alike everywhere.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> scale(8);
  for (auto &s : scale)
    s = 1.0 / size;
  double local = rank, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::vector<double> shifted(8, 0.0);
  for (double &x : shifted)
    x = total + 1.0;
  if (scale[0] > 0.0 && shifted[3] > 0.5)
    MPI_Barrier(MPI_COMM_WORLD);
  for (auto &s : scale)
    s = 0.0;
  if (scale[1] == 0.0)
    MPI_Barrier(MPI_COMM_WORLD);
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
