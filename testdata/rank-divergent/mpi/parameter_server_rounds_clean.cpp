// A parameter server: rank 0 answers every worker for a fixed number of
// rounds (receives from any source, replies to the sender), each worker
// pushes and pulls that many times; then every rank joins the broadcast.
// run: mpi clean
#include <mpi.h>
#include <vector>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = 20, n = 128;
  std::vector<double> w(n, 0.0), g(n);
  if (rank == 0) {
    for (int r = 0; r < rounds * (size - 1); ++r) {
      MPI_Status st;
      MPI_Recv(g.data(), n, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
      for (int i = 0; i < n; ++i) w[i] -= 0.01 * g[i];
      MPI_Send(w.data(), n, MPI_DOUBLE, st.MPI_SOURCE, 1, MPI_COMM_WORLD);
    }
  } else {
    for (int r = 0; r < rounds; ++r) {
      for (int i = 0; i < n; ++i) g[i] = w[i] + rank;
      MPI_Send(g.data(), n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      MPI_Recv(w.data(), n, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Bcast(w.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Finalize();
}
