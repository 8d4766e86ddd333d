// Shards of different lengths, as in rank_file_length_buggy.cpp, but the
// ranks agree on the longest one first and pad: every rank runs the same
// number of all-reduces.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string path = "/tmp/distlint-padded-" +
                           std::to_string(getppid()) + "-" +
                           std::to_string(rank) + ".txt";
  {
    std::ofstream out(path);
    for (int i = 0; i <= rank; ++i)
      out << i * 0.5 << "\n";
  }
  std::ifstream in(path);
  std::vector<double> records;
  double value = 0;
  while (in >> value)
    records.push_back(value);
  long longest = static_cast<long>(records.size());
  MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  records.resize(longest, 0.0);
  for (long i = 0; i < longest; ++i)
    MPI_Allreduce(MPI_IN_PLACE, &records[i], 1, MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
  std::remove(path.c_str());
  MPI_Finalize();
  return 0;
}
