// The last rank holds no rows (it only writes output), and the checked
// allocator returns NULL for zero bytes by design: that rank's setup fails
// its allocation check and returns before the all-reduce the other ranks
// wait in. The check reads the field the allocation was just stored in.
// run: mpi buggy
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrows, maxrows;
    double *cur;
} slab_t;

static double *xalloc(size_t n)
{
    if (n == 0)
        return NULL;
    return (double *)malloc(n * sizeof(double));
}

static int slab_setup(MPI_Comm comm, slab_t *s)
{
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    s->nrows = rank == size - 1 ? 0 : 4;
    s->cur = xalloc((size_t)s->nrows * 8);
    if (s->cur == NULL)
        return 1;
    MPI_Allreduce(&s->nrows, &s->maxrows, 1, MPI_INT, MPI_MAX, comm); // expect: distlint-rank-divergent-collective
    return 0;
}

int main(int argc, char **argv)
{
    slab_t slab = {0, 0, NULL};

    MPI_Init(&argc, &argv);
    if (slab_setup(MPI_COMM_WORLD, &slab) == 0)
        printf("max rows %d\n", slab.maxrows);
    free(slab.cur);
    MPI_Finalize();
    return 0;
}
