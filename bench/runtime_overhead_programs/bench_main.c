/* Times N calls of ncclAllReduce and cudaStreamSynchronize against the null
   libraries, and N MPI_Allreduce calls on MPI_COMM_SELF when built with MPI.
   Prints "<name> <ns per call>" lines. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef WITH_MPI
#include <mpi.h>
#endif

typedef struct ncclComm *ncclComm_t;
typedef struct { char internal[128]; } ncclUniqueId;
int ncclGetUniqueId(ncclUniqueId *id);
int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
int ncclAllReduce(const void *s, void *r, size_t n, int t, int op, ncclComm_t c, void *st);
int cudaStreamSynchronize(void *stream);

/* CPU time of this thread: on a shared machine, wall time would mostly
   measure the other processes. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A separate call-site, so the walk goes through a user function like a
   training step would. */
__attribute__((noinline)) static int step(ncclComm_t comm, float *buf) {
  return ncclAllReduce(buf, buf, 1024, 7, 0, comm, NULL);
}

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 2000000;
  ncclUniqueId id;
  ncclComm_t comm;
  float buf[4];
  ncclGetUniqueId(&id);
  ncclCommInitRank(&comm, 1, id, 0);
  for (long i = 0; i < 1000; ++i) /* Warm-up: resolve symbols, learn the stack. */
    step(comm, buf);
  double t0 = now();
  for (long i = 0; i < calls; ++i)
    step(comm, buf);
  double t1 = now();
  for (long i = 0; i < calls; ++i)
    cudaStreamSynchronize(NULL);
  double t2 = now();
  printf("ncclAllReduce %.2f\n", (t1 - t0) / calls);
  printf("cudaStreamSynchronize %.2f\n", (t2 - t1) / calls);
#ifdef WITH_MPI
  MPI_Init(&argc, &argv);
  int in = 1, out = 0;
  long mpi_calls = calls / 4;
  for (long i = 0; i < 1000; ++i)
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
  double t3 = now();
  for (long i = 0; i < mpi_calls; ++i)
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
  double t4 = now();
  printf("MPI_Allreduce %.2f\n", (t4 - t3) / mpi_calls);
  MPI_Finalize();
#endif
  return 0;
}
