// A matrix object passed by reference: a helper rewrites the elements of
// one of its containers with rank-dependent offsets and times itself into
// another field's buffer. Only those fields' contents differ between ranks;
// the flag and the sizes the solver branches on are the same everywhere.
// run: mpi clean
#include <mpi.h>
#include <cstdio>
#include <vector>

struct Matrix {
  std::vector<int> elements_to_send;
  double *timings;
  int num_iters;
  bool has_local_indices;
};

static void make_local(Matrix &A, int rank) {
  for (size_t i = 0; i < A.elements_to_send.size(); ++i)
    A.elements_to_send[i] -= rank * 4;   // global -> local numbering
  A.timings[0] = MPI_Wtime();            // this rank's clock
  A.has_local_indices = true;
}

static double solve(Matrix &A) {
  if (!A.has_local_indices)
    return -1.0;
  double norm = 1.0;
  for (int k = 0; k < A.num_iters; ++k)
    MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return norm;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double clock[1] = {0.0};
  Matrix A{std::vector<int>(8, 16), clock, 3, false};
  make_local(A, rank);
  double norm = solve(A);
  std::printf("rank %d: norm %g, first element %d\n", rank, norm,
              A.elements_to_send[0]);
  MPI_Finalize();
  return 0;
}
