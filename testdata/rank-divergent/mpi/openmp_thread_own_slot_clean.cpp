// Each thread of the team hands a helper its own slot, which holds a
// communicator duplicated for that thread (the IMB-MT style): the helper's
// collectives run on one communicator per thread, each in its own order.
// distlint-args: -fopenmp
// run: mpi clean
#include <mpi.h>
#include <omp.h>

#include <cstdio>
#include <vector>

struct Slot {
  MPI_Comm comm;
  int value;
};

static void reduce_slot(Slot *slot) {
  int sum = 0;
  MPI_Allreduce(&slot->value, &sum, 1, MPI_INT, MPI_SUM, slot->comm);
  slot->value = sum;
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    std::printf("no MPI_THREAD_MULTIPLE: nothing to do\n");
    MPI_Finalize();
    return 0;
  }
  const int threads = 2;
  std::vector<Slot> slots(threads);
  for (int t = 0; t < threads; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &slots[t].comm);
    slots[t].value = t + 1;
  }
#pragma omp parallel num_threads(threads)
  reduce_slot(&slots[omp_get_thread_num()]);
  for (int t = 0; t < threads; ++t)
    MPI_Comm_free(&slots[t].comm);
  std::printf("sums %d %d\n", slots[0].value, slots[1].value);
  MPI_Finalize();
  return 0;
}
