// The even ranks build a communicator of their own, pairwise: each step
// connects two halves with MPI_Intercomm_create and merges them
// (MPI_Intercomm_merge keeps the members of what it merges), and a helper
// hands the result out through a pointer. The odd ranks never call the
// helper, so they are not members: the barrier and the all-reduce on the
// group inside the even ranks' branch wait for members only. A duplicate
// of a split half is a sub-communicator like the half.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void even_group(int world_rank, int world_size, MPI_Comm *out) {
  int members = (world_size + 1) / 2, me = world_rank / 2;
  MPI_Comm group = MPI_COMM_SELF;
  for (int span = 1; span < members; span *= 2) {
    int block = me / span;
    MPI_Comm inter, merged;
    if (block % 2 == 0) {
      if ((block + 1) * span >= members)
        continue;
      MPI_Intercomm_create(group, 0, MPI_COMM_WORLD, 2 * (block + 1) * span,
                           11, &inter);
      MPI_Intercomm_merge(inter, 0, &merged);
    } else {
      MPI_Intercomm_create(group, 0, MPI_COMM_WORLD, 2 * (block - 1) * span,
                           11, &inter);
      MPI_Intercomm_merge(inter, 1, &merged);
    }
    MPI_Comm_free(&inter);
    if (group != MPI_COMM_SELF)
      MPI_Comm_free(&group);
    group = merged;
  }
  *out = group;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank % 2 == 0) {
    MPI_Comm evens;
    even_group(rank, size, &evens);
    int one = 1, count = 0;
    MPI_Barrier(evens);
    MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, evens);
    if (rank == 0)
      std::printf("%d even ranks\n", count);
    if (evens != MPI_COMM_SELF)
      MPI_Comm_free(&evens);
  }

  MPI_Comm half, copy;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(half, &copy);
  if (rank % 2 == 1)
    MPI_Barrier(copy);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&half);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
