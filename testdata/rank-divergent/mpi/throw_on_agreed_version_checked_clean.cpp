// The serializer throws when the checkpoint format version is one it does
// not know, but the version is parsed on rank 0 and broadcast: every rank
// throws, or none does, so every rank reaches the checksum all-reduce inside
// the status-checking macro, or every rank skips it.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#define MPI_CHECK(call)                                                        \
  do {                                                                         \
    int err_ = (call);                                                         \
    if (err_ != MPI_SUCCESS) {                                                 \
      std::fprintf(stderr, "MPI error %d\n", err_);                            \
      MPI_Abort(MPI_COMM_WORLD, err_);                                         \
    }                                                                          \
  } while (0)

static std::string serialize(int version, long begin, long end) {
  if (version > 2)
    throw std::runtime_error("unknown checkpoint format");
  return std::to_string(version) + ":" + std::to_string(end - begin);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int version = 0;
  if (rank == 0)
    version = argc > 1 ? std::atoi(argv[1]) : 2;
  MPI_CHECK(MPI_Bcast(&version, 1, MPI_INT, 0, MPI_COMM_WORLD));

  bool consolidated = false;
  try {
    const std::string blob = serialize(version, rank * 150L, (rank + 1) * 150L);
    long local = static_cast<long>(blob.size()), total = 0;
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM,
                            MPI_COMM_WORLD));
    consolidated = true;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rank %d: %s, keeping the raw shard\n", rank,
                 e.what());
  }

  int ok = consolidated ? 1 : 0, all_ok = 0;
  MPI_CHECK(
      MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  if (rank == 0)
    std::printf("consolidated: %d\n", all_ok);
  MPI_Finalize();
  return 0;
}
