// "Whoever creates the lock file builds the cache, then waits for the
// others": exactly one process wins the exclusive create, and only that
// process enters the barrier. The condition is local file-system state, not
// the rank.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *tmp = std::getenv("TMPDIR");
  const std::string lock = std::string(tmp ? tmp : "/tmp") +
                           "/distlint-cache-" + std::to_string(getppid()) +
                           ".lock";
  const int fd = open(lock.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (fd >= 0) {
    std::printf("building the cache\n");
    close(fd);
    MPI_Barrier(MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    unlink(lock.c_str());
  }
  MPI_Finalize();
  return 0;
}
