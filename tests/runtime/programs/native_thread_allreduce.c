/* An ncclAllReduce issued on a native thread that has no Python thread state
   (like LibTorch's CUDA autograd threads), for nccl_native_thread.py. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef int (*AllReduceFn)(const void *, void *, size_t, int, int, void *,
                           void *);

struct Call {
  void *Buf;
  size_t Count;
  void *Comm;
  void *Stream;
  int Result;
};

static void *issue(void *Arg) {
  struct Call *C = Arg;
  /* The global scope, as a linked program: the preloaded hook first. */
  AllReduceFn Fn = (AllReduceFn)dlsym(RTLD_DEFAULT, "ncclAllReduce");
  /* ncclFloat32 = 7, ncclSum = 0 */
  C->Result = Fn ? Fn(C->Buf, C->Buf, C->Count, 7, 0, C->Comm, C->Stream) : -1;
  return NULL;
}

int allreduce_on_native_thread(void *Buf, size_t Count, void *Comm,
                               void *Stream) {
  struct Call C = {Buf, Count, Comm, Stream, -1};
  pthread_t Thread;
  if (pthread_create(&Thread, NULL, issue, &C) != 0)
    return -1;
  pthread_join(Thread, NULL);
  return C.Result;
}
