//===- CudaHooks.cpp - Host synchronizations of the CUDA runtime ----------===//
//
// Intercepted when the program links the shared cudart: each call is counted
// at its call-site (no ring record: syncs can be frequent) and watched while
// it blocks, because a host waiting on a stream is where a hung NCCL
// operation shows up.
//
//===----------------------------------------------------------------------===//
#include "Intercept.h"
#include "Runtime.h"

#include <cstddef>

using namespace distlint::rt;

extern "C" {
typedef int cudaError_t;
constexpr cudaError_t cudaSuccess = 0; // The runtime ABI's value.
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

/// What the CUDA runtime hooks forward to (Intercept.h).
struct CudaFamily {
  static constexpr const char *Api = "CUDA runtime";
  static constexpr const char *const Sonames[] = {
      "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so",
      nullptr};
  static constexpr const char *RealPrefix = "";
  static constexpr bool MustExist = false;
  static cudaError_t missing(const char *Name) {
    reportMissingReal(Api, Name);
    return 999; // cudaErrorUnknown
  }
};
using Family = CudaFamily;

template <class Call>
cudaError_t recordSync(void *HookFrame, OpCode Op, Call &&Real) {
  RecordedCall Rec(HookFrame);
  if (!Rec)
    return Real();
  TraceWriter *T = Rec.trace();
  const CallSite &Site = Rec.site();
  // Syncs that no user code asked for (a library's own threads) are not the
  // program's: neither counted nor watched.
  if (!frameValid(Site.Frames[0]))
    return Real();
  SyncHandle H = beginSync(*T, Op, Site);
  cudaError_t R = Real();
  ErrnoKeeper Keep;
  endSync(*T, H);
  if (R == cudaSuccess)
    settleAwaitedEvents();
  return R;
}

} // namespace

INTERCEPTOR(cudaError_t, cudaDeviceSynchronize, void) {
  HOOK_ENTER(cudaDeviceSynchronize);
  return recordSync(HOOK_FRAME, OpCode::CudaDeviceSynchronize,
                    [&] { return Real(); });
}

INTERCEPTOR(cudaError_t, cudaStreamSynchronize, cudaStream_t Stream) {
  HOOK_ENTER(cudaStreamSynchronize, Stream);
  return recordSync(HOOK_FRAME, OpCode::CudaStreamSynchronize,
                    [&] { return Real(Stream); });
}

INTERCEPTOR(cudaError_t, cudaStreamSynchronize_ptsz, cudaStream_t Stream) {
  HOOK_ENTER(cudaStreamSynchronize_ptsz, Stream);
  return recordSync(HOOK_FRAME, OpCode::CudaStreamSynchronize,
                    [&] { return Real(Stream); });
}

INTERCEPTOR(cudaError_t, cudaEventSynchronize, cudaEvent_t Event) {
  HOOK_ENTER(cudaEventSynchronize, Event);
  return recordSync(HOOK_FRAME, OpCode::CudaEventSynchronize,
                    [&] { return Real(Event); });
}

INTERCEPTOR(cudaError_t, cudaMemcpy, void *Dst, const void *Src, size_t Bytes,
            cudaMemcpyKind Kind) {
  HOOK_ENTER(cudaMemcpy, Dst, Src, Bytes, Kind);
  return recordSync(HOOK_FRAME, OpCode::CudaMemcpy,
                    [&] { return Real(Dst, Src, Bytes, Kind); });
}

INTERCEPTOR(cudaError_t, cudaMemcpy_ptds, void *Dst, const void *Src,
            size_t Bytes, cudaMemcpyKind Kind) {
  HOOK_ENTER(cudaMemcpy_ptds, Dst, Src, Bytes, Kind);
  return recordSync(HOOK_FRAME, OpCode::CudaMemcpy,
                    [&] { return Real(Dst, Src, Bytes, Kind); });
}
