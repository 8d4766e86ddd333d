// Checksums are 64-bit unsigned; the all-ones value (past INT64_MAX) marks a
// corrupt shard. Only rank 0's shard is corrupt here, and it returns before
// the reduction the others wait in. (The constants once crashed the engine.)
// run: mpi buggy
#include <mpi.h>
#include <cstdint>
#include <cstdio>
enum : uint64_t { kAllBits = 0xFFFFFFFFFFFFFFFFull };
static uint64_t checksum(int rank) { return rank == 0 ? 0xFFFFFFFFFFFFFFFFull : 7; }
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  uint64_t sum = checksum(rank);
  if (sum == 0xFFFFFFFFFFFFFFFFull) {
    std::fprintf(stderr, "bad\n");
    return 1;
  }
  const uint64_t mask = 0xFFFFFFFFFFFFFFFFull;
  uint64_t buf[2] = {sum & mask, kAllBits};
  MPI_Allreduce(MPI_IN_PLACE, buf, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  MPI_Finalize();
  return 0;
}
