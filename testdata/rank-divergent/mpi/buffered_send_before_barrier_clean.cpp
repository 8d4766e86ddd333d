// The sender attaches a buffer and sends with MPI_Bsend before the barrier;
// the receiver takes the messages after the barrier. A buffered send
// returns once the message is copied into the attached buffer, so the
// sender reaches the barrier without waiting for the receive.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int count = 4096;
  std::vector<int> data(count, rank);
  if (size >= 2 && rank == 0) {
    std::vector<char> buffer(2 * (count * sizeof(int) + MPI_BSEND_OVERHEAD));
    MPI_Buffer_attach(buffer.data(), static_cast<int>(buffer.size()));
    MPI_Bsend(data.data(), count, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Bsend(data.data(), count, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    void *detached = nullptr;
    int detached_size = 0;
    MPI_Buffer_detach(&detached, &detached_size); // waits for delivery
  } else if (size >= 2 && rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(data.data(), count, MPI_INT, 0, 1, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    MPI_Recv(data.data(), count, MPI_INT, 0, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  std::printf("rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}
