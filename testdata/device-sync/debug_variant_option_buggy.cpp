// A benchmark whose kernel variant and debug switch come from the command
// line, in the style of the Parallel Research Kernels: the debug variant
// syncs after every kernel on purpose. A sync that runs every step only when
// the user asks for it (a run-time option away from its default) is the
// run-time twin of an `#ifdef DEBUG` block and is not reported; one that
// runs by default, or under a condition that is a fact of the machine rather
// than a choice, is.
// run: none -- a stray sync slows a GPU job down; it neither hangs nor fails
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdlib>
#include <cstring>

extern const void *transpose_kernel;
extern const void *transpose_debug_kernel;

void sync_device() { cudaDeviceSynchronize(); }

bool peer_access_possible();

int main(int argc, char **argv) {
  int iterations = 100;
  int variant = 2; // 0-5: kernel variants, 6: debug
  if (argc > 1)
    iterations = std::atoi(argv[1]);
  if (argc > 2)
    variant = std::atoi(argv[2]);
  bool check_each_step = false;
  bool sync_always = true;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0)
      check_each_step = true;
    if (std::strcmp(argv[i], "--no-sync") == 0)
      sync_always = false;
  }
  const char *trace = std::getenv("TRANSPOSE_TRACE");
  int trace_level = trace ? std::atoi(trace) : 0;
  bool peer = peer_access_possible();

  float *a = nullptr, *b = nullptr;
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  void *args[] = {&a, &b};
  for (int iter = 0; iter < iterations; ++iter) { // expect-note: training loop
    ncclAlltoAll(a, b, 1024, ncclFloat, comm, stream);
    if (variant == 6) {
      cudaLaunchKernel(transpose_debug_kernel, dim3(16), dim3(16), args, 0,
                       stream);
      sync_device();
    } else {
      cudaLaunchKernel(transpose_kernel, dim3(16), dim3(16), args, 0, stream);
    }
    if (check_each_step && iter > 0)
      cudaDeviceSynchronize();
    if (trace_level >= 2)
      cudaStreamSynchronize(stream);
    if (sync_always)
      cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
    if (peer)
      cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
  cudaDeviceSynchronize();
  return 0;
}

// The same with the options in a struct parsed from argv.
struct Options {
  int variant = 2;
  bool verbose = false;
  bool sync = true;
};

Options parse_options(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--debug") == 0)
      o.variant = 6;
    else if (std::strcmp(argv[i], "--verbose") == 0)
      o.verbose = true;
    else if (std::strcmp(argv[i], "--no-sync") == 0)
      o.sync = false;
  }
  return o;
}

void run(int argc, char **argv, ncclComm_t comm, cudaStream_t stream) {
  Options options = parse_options(argc, argv);
  float *a = nullptr, *b = nullptr;
  void *args[] = {&a, &b};
  for (int iter = 0; iter < 100; ++iter) { // expect-note: training loop
    ncclAlltoAll(a, b, 1024, ncclFloat, comm, stream);
    cudaLaunchKernel(transpose_kernel, dim3(16), dim3(16), args, 0, stream);
    if (options.variant == 6 || options.verbose)
      cudaDeviceSynchronize();
    if (options.sync)
      cudaDeviceSynchronize(); // expect: distlint-stray-device-sync
  }
}
