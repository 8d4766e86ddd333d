// Distributed k-means whose update writes the new centroids from this
// rank's own sums and counts instead of the all-reduced ones: the centroids
// (a field agreed by rank 0's broadcast) differ between ranks from the first
// update on, so the ranks converge at different iterations and one leaves
// the loop while the others wait in the next all-reduce.
// run: mpi buggy
#include <mpi.h>
#include <cmath>
#include <cstdio>
#include <vector>

struct Model {
  int k;
  std::vector<double> centroids;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int local_n = 40 + 10 * rank;
  std::vector<double> pts(local_n);
  for (int i = 0; i < local_n; ++i)
    pts[i] = (i % 3) * 5.0 + 0.01 * rank;

  Model m{3, std::vector<double>(3)};
  if (rank == 0)
    for (int c = 0; c < m.k; ++c)
      m.centroids[c] = pts[c];
  MPI_Bcast(m.centroids.data(), m.k, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  int iter = 0;
  for (; iter < 50; ++iter) {
    std::vector<double> sums(m.k, 0.0);
    std::vector<double> counts(m.k, 0.0);
    for (int i = 0; i < local_n; ++i) {
      int best = 0;
      for (int c = 1; c < m.k; ++c)
        if (std::fabs(pts[i] - m.centroids[c]) <
            std::fabs(pts[i] - m.centroids[best]))
          best = c;
      sums[best] += pts[i];
      counts[best] += 1.0;
    }
    std::vector<double> total(m.k, 0.0);
    MPI_Allreduce(counts.data(), total.data(), int(counts.size()), MPI_DOUBLE, // expect: distlint-rank-divergent-collective
                  MPI_SUM, MPI_COMM_WORLD);
    double shift = 0.0;
    for (int c = 0; c < m.k; ++c) {
      if (counts[c] == 0.0)
        continue;
      double next = sums[c] / counts[c];
      shift = std::fmax(shift, std::fabs(next - m.centroids[c]));
      m.centroids[c] = next;
    }
    if (shift < 1e-9 && total[0] > 0.0)
      break;
  }
  if (rank == 0)
    std::printf("converged after %d iterations\n", iter);
  MPI_Finalize();
  return 0;
}
