// As field_elements_vary_not_the_object_clean, but the solver decides from
// an element the helper made rank-dependent: rank 0's first element is 16,
// the others' are smaller, so only rank 0 enters the reduction and waits
// for the others forever.
// run: mpi buggy
#include <mpi.h>
#include <cstdio>
#include <vector>

struct Matrix {
  std::vector<int> elements_to_send;
  int num_iters;
  bool has_local_indices;
};

static void make_local(Matrix &A, int rank) {
  for (size_t i = 0; i < A.elements_to_send.size(); ++i)
    A.elements_to_send[i] -= rank * 4;   // global -> local numbering
  A.has_local_indices = true;
}

static double solve(Matrix &A) {
  double norm = 1.0;
  if (A.elements_to_send[0] < 16)
    return norm;
  for (int k = 0; k < A.num_iters; ++k)
    MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
  return norm;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Matrix A{std::vector<int>(8, 16), 3, false};
  make_local(A, rank);
  double norm = solve(A);
  std::printf("rank %d: norm %g\n", rank, norm);
  MPI_Finalize();
  return 0;
}
