// A small vector library: the create call duplicates the communicator,
// allocates the rank's own number of entries into a field of the handle
// and checks that allocation right after it (`v->x = (double *)malloc(...); if
// (v->x == NULL) goto fn_fail;`): a failed allocation is an error path that
// ends the job in main (MPI_Abort), like a checked status, so the handle
// handed back is the same kind of object on every rank and the collectives
// on its communicator match.
// run: mpi clean
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    MPI_Comm comm;
    int nlocal;
    long nglobal;
    double *x;
} dvec_t;

static int dvec_create(MPI_Comm user, int nlocal, dvec_t **out)
{
    int rc = 0, i;
    long n = nlocal;
    dvec_t *v = (dvec_t *)calloc(1, sizeof(*v));

    *out = NULL;
    if (v == NULL)
        return 1;
    v->comm = MPI_COMM_NULL;
    if (MPI_Comm_dup(user, &v->comm) != MPI_SUCCESS) {
        rc = 2;
        goto fn_fail;
    }
    v->nlocal = nlocal;
    MPI_Allreduce(&n, &v->nglobal, 1, MPI_LONG, MPI_SUM, v->comm);
    v->x = (double *)malloc(sizeof(double) * (size_t)(nlocal > 0 ? nlocal : 1));
    if (v->x == NULL) {
        rc = 1;
        goto fn_fail;
    }
    for (i = 0; i < nlocal; i++)
        v->x[i] = i;
    *out = v;
    return 0;
fn_fail:
    if (v->comm != MPI_COMM_NULL)
        MPI_Comm_free(&v->comm);
    free(v);
    return rc;
}

int main(int argc, char **argv)
{
    int rank, errs = 0, toterrs = 0;
    dvec_t *v = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (dvec_create(MPI_COMM_WORLD, 3 + 2 * rank, &v) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (v->nglobal <= 0)
        errs++;
    MPI_Allreduce(&errs, &toterrs, 1, MPI_INT, MPI_SUM, v->comm);
    if (rank == 0 && toterrs == 0)
        printf(" No Errors\n");
    MPI_Comm_free(&v->comm);
    free(v->x);
    free(v);
    MPI_Finalize();
    return 0;
}
