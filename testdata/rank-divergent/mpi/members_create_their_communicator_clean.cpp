// Communicators that only their members create: MPI_Comm_create_group is
// called by the ranks of the group alone, MPI_Intercomm_create by the ranks
// of the two local communicators, and MPI_Cart_sub hands each rank a
// communicator of its own slice. Whoever holds such a communicator created
// it, so a rank branch around the creation and the collectives on it (or
// around freeing a slice) does not split its members.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // The even ranks, by a group only they use.
  MPI_Group world, evens;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> odd;
  for (int r = 1; r < size; r += 2)
    odd.push_back(r);
  MPI_Group_excl(world, static_cast<int>(odd.size()), odd.data(), &evens);
  if (rank % 2 == 0) {
    MPI_Comm even_comm;
    MPI_Comm_create_group(MPI_COMM_WORLD, evens, 0, &even_comm);
    int one = 1, count = 0;
    MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, even_comm);
    MPI_Barrier(even_comm);
    MPI_Comm_free(&even_comm);
    if (rank == 0)
      std::printf("%d even ranks\n", count);
  }
  MPI_Group_free(&evens);
  MPI_Group_free(&world);

  // Ranks 0 and 1 talk over an inter-communicator of their own.
  if (rank < 2 && size >= 2) {
    MPI_Comm inter;
    MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1 - rank, 7, &inter);
    int mine = rank, theirs = -1;
    MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT, 0, 3, inter,
                 MPI_STATUS_IGNORE);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
  }

  // A zero-dimensional slice of a line: each rank alone.
  int dims[1] = {size}, periods[1] = {0}, remain[1] = {0};
  MPI_Comm line, slice;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
  MPI_Cart_sub(line, remain, &slice);
  int line_rank = 0;
  MPI_Comm_rank(line, &line_rank);
  if (line_rank == 0) {
    MPI_Barrier(slice);
    MPI_Comm_free(&slice);
  } else if (slice != MPI_COMM_NULL) {
    MPI_Comm_free(&slice);
  }
  MPI_Comm_free(&line);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
