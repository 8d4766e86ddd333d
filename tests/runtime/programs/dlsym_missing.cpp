// Finds ncclAllReduce at run time without any NCCL library loaded. With the
// recorder preloaded that finds the hook, which has nothing to forward to:
// it must say so in one line (however often it is called) and return
// ncclSystemError (2).
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef int (*AllReduceFn)(const void *, void *, size_t, int, int, void *, void *);

int main() {
  AllReduceFn allReduce = (AllReduceFn)dlsym(RTLD_DEFAULT, "ncclAllReduce");
  if (!allReduce) {
    puts("no ncclAllReduce anywhere");
    return 3;
  }
  int first = allReduce(NULL, NULL, 0, 0, 0, NULL, NULL);
  int second = allReduce(NULL, NULL, 0, 0, 0, NULL, NULL);
  printf("results %d %d\n", first, second);
  return 0;
}
