// A shard is serialized inside a try block before the checksum all-reduce,
// which runs inside a status-checking macro (`int err_ = (call);`): the
// serializer throws on the ranks whose shard does not start on a record
// boundary, their catch handler only logs, and they go on to the next
// all-reduce while rank 0 is still in the first one.
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
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

struct Shard {
  long begin;
  long end;
};

static std::string serialize(const Shard &s) {
  if (s.begin % 100 != 0)
    throw std::runtime_error("shard starts inside a record");
  return std::to_string(s.end - s.begin);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Shard shard{rank * 150L, (rank + 1) * 150L};

  bool consolidated = false;
  try {
    const std::string blob = serialize(shard);
    long local = static_cast<long>(blob.size()), total = 0;
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_LONG, MPI_SUM, // expect: distlint-rank-divergent-collective
                            MPI_COMM_WORLD));
    consolidated = true;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rank %d: %s, keeping the raw shard\n", rank,
                 e.what());
  }

  int ok = consolidated ? 1 : 0, all_ok = 0;
  MPI_CHECK(
      MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0)
    std::printf("consolidated: %d\n", all_ok);
  MPI_Finalize();
  return 0;
}
