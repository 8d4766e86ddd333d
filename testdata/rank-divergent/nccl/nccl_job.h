// Start-up shared by the raw-NCCL testdata programs (a header, not a case).
//
// Rank and world size come from the launcher's environment (RANK, WORLD_SIZE,
// LOCAL_RANK as torchrun and distlint-rt set them). Rank 0 creates the
// ncclUniqueId and hands it to the others through a file: $NCCL_ID_FILE, or
// /tmp/distlint-nccl-id-$MASTER_PORT (a launcher picks a fresh port per job).
#ifndef DISTLINT_TESTDATA_NCCL_JOB_H
#define DISTLINT_TESTDATA_NCCL_JOB_H

#include <cuda_runtime.h>
#include <nccl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_NCCL(call)                                                       \
  do {                                                                         \
    ncclResult_t check_ = (call);                                              \
    if (check_ != ncclSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              ncclGetErrorString(check_));                                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t check_ = (call);                                               \
    if (check_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(check_));                                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct NcclJob {
  int rank;
  int size;
  ncclComm_t comm;
  cudaStream_t stream;
};

static int envInt(const char *name, int fallback) {
  const char *value = getenv(name);
  return value ? atoi(value) : fallback;
}

static void idFilePath(char *path, size_t size) {
  const char *explicitPath = getenv("NCCL_ID_FILE");
  if (explicitPath)
    snprintf(path, size, "%s", explicitPath);
  else
    snprintf(path, size, "/tmp/distlint-nccl-id-%s",
             getenv("MASTER_PORT") ? getenv("MASTER_PORT") : "0");
}

static void publishId(const ncclUniqueId *id) {
  char path[512], staging[600];
  idFilePath(path, sizeof(path));
  snprintf(staging, sizeof(staging), "%s.%d", path, (int)getpid());
  FILE *out = fopen(staging, "wb");
  if (!out || fwrite(id, sizeof(*id), 1, out) != 1) {
    perror(staging);
    exit(1);
  }
  fclose(out);
  rename(staging, path); // Readers never see half a file.
}

static void fetchId(ncclUniqueId *id) {
  char path[512];
  idFilePath(path, sizeof(path));
  for (;;) {
    FILE *in = fopen(path, "rb");
    if (in) {
      size_t got = fread(id, sizeof(*id), 1, in);
      fclose(in);
      if (got == 1)
        return;
    }
    usleep(10000);
  }
}

static struct NcclJob startJob(void) {
  struct NcclJob job;
  job.rank = envInt("RANK", 0);
  job.size = envInt("WORLD_SIZE", 1);
  CHECK_CUDA(cudaSetDevice(envInt("LOCAL_RANK", 0)));
  ncclUniqueId id;
  if (job.rank == 0) {
    CHECK_NCCL(ncclGetUniqueId(&id));
    publishId(&id);
  } else {
    fetchId(&id);
  }
  CHECK_NCCL(ncclCommInitRank(&job.comm, job.size, id, job.rank));
  CHECK_CUDA(cudaStreamCreate(&job.stream));
  return job;
}

// Waits for the job's NCCL work and checks NCCL's asynchronous error state.
static void finishJob(struct NcclJob *job) {
  CHECK_CUDA(cudaStreamSynchronize(job->stream));
  ncclResult_t asyncError;
  CHECK_NCCL(ncclCommGetAsyncError(job->comm, &asyncError));
  if (asyncError != ncclSuccess) {
    fprintf(stderr, "rank %d: NCCL error: %s\n", job->rank,
            ncclGetErrorString(asyncError));
    exit(1);
  }
  CHECK_NCCL(ncclCommDestroy(job->comm));
  if (job->rank == 0) {
    char path[512];
    idFilePath(path, sizeof(path));
    unlink(path);
  }
}

static float *deviceFloats(size_t count, float value) {
  float *host = (float *)malloc(count * sizeof(float));
  for (size_t i = 0; i < count; ++i)
    host[i] = value;
  float *device = NULL;
  CHECK_CUDA(cudaMalloc((void **)&device, count * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(device, host, count * sizeof(float), cudaMemcpyHostToDevice));
  free(host);
  return device;
}

static float firstValue(const float *device) {
  float value = 0;
  CHECK_CUDA(cudaMemcpy(&value, device, sizeof(float), cudaMemcpyDeviceToHost));
  return value;
}

#endif
