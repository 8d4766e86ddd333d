// A logger that every rank creates (only rank 0 writes); its flush() sums the
// counters across ranks, and every rank calls it because the pointer is
// non-null on all of them: the factory returns std::make_unique, whose
// object differs between ranks but whose pointer is never null.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <memory>

struct Logger {
  MPI_Comm comm;
  bool writer;
  long samples = 0;
  Logger(MPI_Comm c, bool w) : comm(c), writer(w) {}
  void flush(int step) {
    long total = 0;
    MPI_Allreduce(&samples, &total, 1, MPI_LONG, MPI_SUM, comm);
    if (writer) std::printf("step %d samples %ld\n", step, total);
    samples = 0;
  }
};

static std::unique_ptr<Logger> make_logger(MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  return std::make_unique<Logger>(comm, r == 0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  auto logger = make_logger(MPI_COMM_WORLD);
  for (int step = 1; step <= 20; ++step) {
    logger->samples += 32;
    if (logger && step % 5 == 0) logger->flush(step);
  }
  if (logger->writer) std::printf("done\n");
  logger->flush(-1);
  MPI_Finalize();
  return 0;
}
