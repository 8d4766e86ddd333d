// LD_PRELOAD helper for the Gloo run proofs (tests/torch/run_gloo.py).
//
// A real rank-divergence hang has every rank alive: the rank that skipped a
// collective is busy elsewhere (its next step, its next epoch) while its peer
// waits inside the collective until Gloo's timeout fires. A small test
// program's "other" rank instead reaches the end of main, destroys its process
// group and exits; its peer then sees "Connection closed by peer" at once,
// not the timeout the label promises. This library keeps such a rank alive as
// it would be in a real job:
//   - close() on a TCP socket is not passed on, so Gloo's connections stay
//     open after the process group is destroyed;
//   - at exit the process waits until every rank of the job has reached exit
//     too (a file per rank in $DISTLINT_KEEP_ALIVE_DIR) or until
//     $DISTLINT_KEEP_ALIVE_MS has passed.
// A clean program is unaffected (all ranks reach exit and leave at once); a
// rank killed by Gloo's timeout error never reaches the exit hook.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int (*real_close)(int);

static int isTcpSocket(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
    return 0;
  struct sockaddr_storage addr;
  socklen_t len = sizeof addr;
  if (getsockname(fd, (struct sockaddr *)&addr, &len) != 0)
    return 0;
  return addr.ss_family == AF_INET || addr.ss_family == AF_INET6;
}

int close(int fd) {
  if (!real_close)
    real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
  if (getenv("DISTLINT_KEEP_ALIVE_DIR") && isTcpSocket(fd))
    return 0; // Leaked on purpose: the peer must not see the connection end.
  return real_close(fd);
}

static long envLong(const char *Name, long Default) {
  const char *Text = getenv(Name);
  return Text && *Text ? atol(Text) : Default;
}

static int countExitMarks(const char *Dir) {
  DIR *D = opendir(Dir);
  if (!D)
    return 0;
  int N = 0;
  struct dirent *E;
  while ((E = readdir(D)))
    if (strncmp(E->d_name, "exit.", 5) == 0)
      ++N;
  closedir(D);
  return N;
}

__attribute__((destructor)) static void waitForPeersAtExit(void) {
  const char *Dir = getenv("DISTLINT_KEEP_ALIVE_DIR");
  if (!Dir)
    return;
  char Mark[4096];
  snprintf(Mark, sizeof Mark, "%s/exit.%s", Dir,
           getenv("RANK") ? getenv("RANK") : "unknown");
  int Fd = open(Mark, O_CREAT | O_WRONLY, 0644);
  if (Fd >= 0)
    close(Fd);
  long World = envLong("WORLD_SIZE", 1);
  long WaitMs = envLong("DISTLINT_KEEP_ALIVE_MS", 10000);
  struct timespec Step = {0, 20 * 1000 * 1000};
  for (long Waited = 0; Waited < WaitMs; Waited += 20) {
    if (countExitMarks(Dir) >= World)
      return;
    nanosleep(&Step, NULL);
  }
}
