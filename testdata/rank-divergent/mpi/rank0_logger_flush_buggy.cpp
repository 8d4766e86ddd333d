// A metrics logger that only rank 0 creates; its flush() sums the counters
// across ranks before writing, so only rank 0 enters the all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <memory>
#include <string>

class MetricsLogger {
 public:
  MetricsLogger(MPI_Comm comm, std::string path) : comm_(comm), path_(std::move(path)) {}
  void count(const char *, long n) { samples_ += n; }
  void flush(int step) {
    long total = 0;
    MPI_Allreduce(&samples_, &total, 1, MPI_LONG, MPI_SUM, comm_);
    std::printf("[%s] step %d samples %ld\n", path_.c_str(), step, total);
    samples_ = 0;
  }
 private:
  MPI_Comm comm_;
  std::string path_;
  long samples_ = 0;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  std::unique_ptr<MetricsLogger> logger;
  if (rank == 0) logger = std::make_unique<MetricsLogger>(MPI_COMM_WORLD, "train.log");

  float w = 1.0f;
  for (int step = 1; step <= 20; ++step) {
    float g = 0.1f * rank;
    MPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    w -= 0.01f * g;
    if (logger) {
      logger->count("samples", 32);
      if (step % 10 == 0) logger->flush(step); // expect: distlint-rank-divergent-collective
    }
  }
  MPI_Finalize();
  return 0;
}
