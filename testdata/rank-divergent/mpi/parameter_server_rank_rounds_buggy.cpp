// The parameter server of parameter_server_rounds_clean.cpp with a worker
// round count that grows with the rank: the server answers rounds * (size -
// 1) pushes and moves on to the broadcast, while the last workers still wait
// for its replies.
// run: mpi buggy
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
    for (int r = 0; r < rounds + rank; ++r) {
      for (int i = 0; i < n; ++i) g[i] = w[i] + rank;
      MPI_Send(g.data(), n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
      MPI_Recv(w.data(), n, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Bcast(w.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  MPI_Finalize();
}
