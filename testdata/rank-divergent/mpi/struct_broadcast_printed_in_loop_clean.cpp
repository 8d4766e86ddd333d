// C-style parameters: rank 0 fills a struct through a pointer, the struct is
// broadcast as bytes, and the iteration loop prints the struct's tag on rank
// 0. printf only reads what it formats: the iteration count stays the
// broadcast one on every pass.
// run: mpi clean
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

typedef struct {
  int n_iter;
  int verbose;
  char tag[16];
} Params;

static int read_params(Params *p, int argc, char **argv) {
  std::memset(p, 0, sizeof(*p));
  p->n_iter = 3;
  p->verbose = 1;
  std::strncpy(p->tag, "run", sizeof(p->tag) - 1);
  if (argc > 1)
    p->n_iter = std::atoi(argv[1]);
  return p->n_iter > 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  int rank, rc = 0;
  Params prm;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    rc = read_params(&prm, argc, argv);
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rc != 0)
    goto done;
  MPI_Bcast(&prm, (int)sizeof(Params), MPI_BYTE, 0, MPI_COMM_WORLD);
  for (int it = 0; it < prm.n_iter; ++it) {
    double local = rank, sum = 0;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && prm.verbose)
      std::printf("[%s] it=%d sum=%g\n", prm.tag, it, sum);
  }
done:
  MPI_Finalize();
  return 0;
}
