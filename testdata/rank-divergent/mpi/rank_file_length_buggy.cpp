// Each rank reads its own shard file (the path is chosen by the rank) with
// std::ifstream and all-reduces one value per record. The files have
// different lengths, so rank 1 enters an all-reduce rank 0 never joins.
// run: mpi buggy
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
  const std::string path = "/tmp/distlint-shard-" +
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
  for (size_t i = 0; i < records.size(); ++i) // expect-note: loop condition depends on rank-local data
    MPI_Allreduce(MPI_IN_PLACE, &records[i], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  std::remove(path.c_str());
  MPI_Finalize();
  return 0;
}
