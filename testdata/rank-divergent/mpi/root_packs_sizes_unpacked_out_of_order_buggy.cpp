// The twin of root_packs_sizes_in_list_clean.cpp where the receivers unpack
// the two edge counts in the wrong order: rank 0 broadcasts 3 x edges and
// then 5 y edges, the others expect 5 and then 3. The second broadcast
// overruns the receivers' buffer (MPI_ERR_TRUNCATE ends the job).
// run: mpi buggy
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

struct Mesh {
  std::vector<double> x_edges, y_edges;
  std::vector<unsigned> cells;
};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Mesh mesh;
  unsigned seed = 11;
  if (rank == 0) {
    int n = argc > 1 ? std::atoi(argv[1]) : 3;
    mesh.x_edges.assign(n, 0.5);
    mesh.y_edges.assign(n + 2, 1.5);
    mesh.cells.assign(n + 1, 4u);
    seed = n * 7u;
  }
  unsigned n_x = mesh.x_edges.size(), n_y = mesh.y_edges.size();
  unsigned n_cells = mesh.cells.size();
  std::vector<unsigned> sizes = {seed, n_x, n_y, n_cells};
  if (rank == 0) {
    MPI_Bcast(sizes.data(), sizes.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    MPI_Bcast(mesh.x_edges.data(), n_x, MPI_DOUBLE, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Bcast(mesh.y_edges.data(), n_y, MPI_DOUBLE, 0, MPI_COMM_WORLD); // expect: distlint-rank-divergent-collective
    MPI_Bcast(mesh.cells.data(), n_cells, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(sizes.data(), sizes.size(), MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    size_t i = 0;
    seed = sizes[i++];
    const unsigned n_y = sizes[i++];
    const unsigned n_x = sizes[i++];
    const unsigned n_cells = sizes[i++];
    mesh.x_edges.resize(n_x);
    mesh.y_edges.resize(n_y);
    mesh.cells.resize(n_cells);
    MPI_Bcast(mesh.x_edges.data(), n_x, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(mesh.y_edges.data(), n_y, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast(mesh.cells.data(), n_cells, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  }
  std::printf("rank %d: seed %u, %zu x %zu edges, %zu cells\n", rank, seed,
              mesh.x_edges.size(), mesh.y_edges.size(), mesh.cells.size());
  MPI_Finalize();
  return 0;
}
