// Rank 0 appends to a log with collective MPI-IO, but on MPI_COMM_SELF: a
// file opened on the caller's own communicator is the caller's alone, so
// its open, write and close wait for nobody. The barrier on a copy of
// MPI_COMM_SELF under a rank-local test waits for nobody either, and every
// process is rank 0 of the one process of MPI_COMM_SELF, so the world
// barrier under that test is issued by every rank.
// run: mpi clean
#include <mpi.h>
#include <cstdio>

static void log_line(const char *path, const char *text, int length) {
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path,
                MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_APPEND,
                MPI_INFO_NULL, &fh);
  MPI_File_write_all(fh, text, length, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int self_rank = -1, self_size = 0;
  MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
  MPI_Comm_size(MPI_COMM_SELF, &self_size);
  if (self_rank == 0 && self_size == 1)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm self = MPI_COMM_SELF;
  double loss = 1.0 / (rank + 1), sum = 0;
  for (int step = 0; step < 5; ++step) {
    MPI_Allreduce(&loss, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      log_line("distlint-train.log", "step\n", 5);
    if (loss > 0.7)
      MPI_Barrier(self);
  }
  if (rank == 0)
    std::printf("loss sum %f\n", sum);
  MPI_Finalize();
  return 0;
}
