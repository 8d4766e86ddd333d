// Receive buffers used the way MPI defines them: the reduced total is read
// on the root only, or broadcast before every rank decides on it; each
// rank's scattered part feeds only its own local work; and the status code
// of a point-to-point call that sends a scattered part is an error code,
// not data, so the check around it is the same on every rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mine = rank + 1.0, total = 0.0;
  MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && total > 0.0)
    std::printf("total %f\n", total);
  MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (total > 0.0)
    MPI_Barrier(MPI_COMM_WORLD);
  int parts[64] = {0}, part = 0;
  for (int r = 0; r < size && r < 64; ++r)
    parts[r] = 10 * r;
  MPI_Scatter(parts, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD);
  double local = 0.0;
  for (int i = 0; i < part; ++i)
    local += i;
  int peer = (rank + 1) % size, from = (rank + size - 1) % size, got = 0;
  int err = MPI_Sendrecv(&part, 1, MPI_INT, peer, 0, &got, 1, MPI_INT, from, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (err != MPI_SUCCESS)
    std::printf("rank %d: MPI_Sendrecv failed\n", rank);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  double sum = 0.0;
  MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  std::printf("rank %d part %d got %d sum %f\n", rank, part, got, sum);
  MPI_Finalize();
  return 0;
}
