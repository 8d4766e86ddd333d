// Rank 0 names the run's tag (a constant, stored on rank 0 only) and a
// helper broadcasts the string field: its length first, then resize() and
// the characters. Every rank then holds the same tag, and the summary
// helper that skips its gather when the tag is empty skips it everywhere.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <string>
#include <vector>

struct RunInfo {
  int steps = 3;
  std::string tag;
};

static void broadcast_tag(RunInfo &info) {
  int length = static_cast<int>(info.tag.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  info.tag.resize(length);
  MPI_Bcast(info.tag.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static void summarize(const RunInfo &info, double value, int size) {
  if (info.tag.empty())
    return;
  std::vector<double> all(size);
  MPI_Gather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  RunInfo info;
  if (rank == 0)
    info.tag = "baseline";
  broadcast_tag(info);
  summarize(info, 1.0 + rank, size);
  if (rank == 0)
    std::printf("tag %s\n", info.tag.c_str());
  MPI_Finalize();
  return 0;
}
