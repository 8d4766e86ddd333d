//===- CudaHooks.cpp - Host synchronizations of the CUDA runtime ------------===//
//
// Intercepted when the program links the shared cudart: each call is counted
// at its call-site (no ring record: syncs can be frequent) and watched while
// it blocks, because a host waiting on a stream is where a hung NCCL
// operation shows up.
//
//===----------------------------------------------------------------------===//
#include "Forward.h"
#include "Runtime.h"

#include <cstddef>

using namespace distlint::rt;

extern "C" {
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef int cudaMemcpyKind;
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpy_ptds(void *, const void *, size_t, cudaMemcpyKind);
}

namespace {

const char *const CudartSonames[] = {"libcudart.so.13", "libcudart.so.12",
                                     "libcudart.so.11.0", "libcudart.so", nullptr};
constexpr cudaError_t kCudaErrorUnknown = 999;

#define REAL_CUDA(Name)                                                        \
  ([] {                                                                        \
    static RealFunction<decltype(&::Name)> Fn;                                 \
    return Fn.get(#Name, CudartSonames);                                       \
  }())

cudaError_t missing(const char *Name) {
  reportMissingReal("CUDA runtime", Name);
  return kCudaErrorUnknown;
}

template <class Call> cudaError_t recordSync(void *HookFrame, OpCode Op, Call &&Real) {
  TraceWriter *T = trace();
  if (!T)
    return Real();
  HookScope Guard;
  CallSite Site;
  captureCallSite(HookFrame, Site);
  // Syncs that no user code asked for (a library's own threads) are not the
  // program's: neither counted nor watched.
  if (!frameValid(Site.Frames[0]))
    return Real();
  SyncHandle H = beginSync(*T, Op, Site);
  cudaError_t R = Real();
  ErrnoKeeper Keep;
  endSync(*T, H);
  return R;
}

} // namespace

#define DLRT_HOOK extern "C" __attribute__((visibility("default"), noinline))

DLRT_HOOK cudaError_t cudaDeviceSynchronize(void) {
  auto Real = REAL_CUDA(cudaDeviceSynchronize);
  if (!Real)
    return missing("cudaDeviceSynchronize");
  if (insideHook())
    return Real();
  return recordSync(__builtin_frame_address(0), OpCode::CudaDeviceSynchronize,
                    [&] { return Real(); });
}

DLRT_HOOK cudaError_t cudaStreamSynchronize(cudaStream_t Stream) {
  auto Real = REAL_CUDA(cudaStreamSynchronize);
  if (!Real)
    return missing("cudaStreamSynchronize");
  if (insideHook())
    return Real(Stream);
  return recordSync(__builtin_frame_address(0), OpCode::CudaStreamSynchronize,
                    [&] { return Real(Stream); });
}

DLRT_HOOK cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t Stream) {
  auto Real = REAL_CUDA(cudaStreamSynchronize_ptsz);
  if (!Real)
    return missing("cudaStreamSynchronize_ptsz");
  if (insideHook())
    return Real(Stream);
  return recordSync(__builtin_frame_address(0), OpCode::CudaStreamSynchronize,
                    [&] { return Real(Stream); });
}

DLRT_HOOK cudaError_t cudaEventSynchronize(cudaEvent_t Event) {
  auto Real = REAL_CUDA(cudaEventSynchronize);
  if (!Real)
    return missing("cudaEventSynchronize");
  if (insideHook())
    return Real(Event);
  return recordSync(__builtin_frame_address(0), OpCode::CudaEventSynchronize,
                    [&] { return Real(Event); });
}

DLRT_HOOK cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Bytes,
                                 cudaMemcpyKind Kind) {
  auto Real = REAL_CUDA(cudaMemcpy);
  if (!Real)
    return missing("cudaMemcpy");
  if (insideHook())
    return Real(Dst, Src, Bytes, Kind);
  return recordSync(__builtin_frame_address(0), OpCode::CudaMemcpy,
                    [&] { return Real(Dst, Src, Bytes, Kind); });
}

DLRT_HOOK cudaError_t cudaMemcpy_ptds(void *Dst, const void *Src, size_t Bytes,
                                      cudaMemcpyKind Kind) {
  auto Real = REAL_CUDA(cudaMemcpy_ptds);
  if (!Real)
    return missing("cudaMemcpy_ptds");
  if (insideHook())
    return Real(Dst, Src, Bytes, Kind);
  return recordSync(__builtin_frame_address(0), OpCode::CudaMemcpy,
                    [&] { return Real(Dst, Src, Bytes, Kind); });
}
