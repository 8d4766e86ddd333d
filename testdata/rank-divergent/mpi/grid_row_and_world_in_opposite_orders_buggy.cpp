// A 2-D process grid: each row of the grid gets its own communicator. The
// tiles on the first column (the inflow boundary) settle the row's inflow
// first and the global mass second; the interior tiles do the two the other
// way round. A row holds both kinds of tiles: its first tile waits in the
// row's all-reduce for the second, which waits in the world's all-reduce
// for the first.
// run: mpi buggy ranks=4
#include <mpi.h>

#include <cstdio>

struct Grid {
  int rows = 1, cols = 1, row = 0, col = 0;
  MPI_Comm row_comm = MPI_COMM_NULL;
};

static Grid make_grid() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Grid g;
  g.cols = size >= 4 ? 2 : 1;
  g.rows = size / g.cols;
  g.row = rank / g.cols;
  g.col = rank % g.cols;
  MPI_Comm_split(MPI_COMM_WORLD, g.row, g.col, &g.row_comm);
  return g;
}

static void boundary_budget(const Grid &g, double in, double mass,
                            double out[2]) {
  MPI_Allreduce(&in, &out[0], 1, MPI_DOUBLE, MPI_SUM, g.row_comm);
  MPI_Allreduce(&mass, &out[1], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void interior_budget(const Grid &g, double mass, double out[2]) {
  double none = 0.0;
  MPI_Allreduce(&mass, &out[1], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&none, &out[0], 1, MPI_DOUBLE, MPI_SUM, g.row_comm);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  Grid g = make_grid();
  double budget[2] = {0, 0};
  for (int step = 0; step < 3; ++step) {
    const double mass = 1.0 + g.row + g.col, in = 0.5 * g.row;
    if (g.col == 0)
      boundary_budget(g, in, mass, budget); // expect: distlint-rank-divergent-collective
    else
      interior_budget(g, mass, budget);
  }
  std::printf("%g %g\n", budget[0], budget[1]);
  MPI_Comm_free(&g.row_comm);
  MPI_Finalize();
  return 0;
}
