/* Null NCCL and CUDA runtime for the overhead bench: every entry point
   returns at once, so the time measured with the preload library minus the
   time without it is the recorder's own cost per call. Built twice, as
   libnccl.so.2 and libcudart.so.13. */
#include <stddef.h>

typedef struct ncclComm *ncclComm_t;
typedef struct { char internal[128]; } ncclUniqueId;
static char TheComm[64];

int ncclGetUniqueId(ncclUniqueId *id) { id->internal[0] = 1; return 0; }
int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank) {
  (void)nranks; (void)id; (void)rank;
  *comm = (ncclComm_t)TheComm;
  return 0;
}
int ncclCommUserRank(ncclComm_t comm, int *rank) { (void)comm; *rank = 0; return 0; }
int ncclCommCount(ncclComm_t comm, int *count) { (void)comm; *count = 1; return 0; }
int ncclCommDestroy(ncclComm_t comm) { (void)comm; return 0; }
int ncclAllReduce(const void *s, void *r, size_t n, int t, int op, ncclComm_t c, void *st) {
  (void)s; (void)r; (void)n; (void)t; (void)op; (void)c; (void)st;
  return 0;
}
int ncclGroupStart(void) { return 0; }
int ncclGroupEnd(void) { return 0; }
int cudaStreamSynchronize(void *stream) { (void)stream; return 0; }
