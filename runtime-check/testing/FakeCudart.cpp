//===- FakeCudart.cpp - Test-only libcudart.so.13 stand-in ------------------===//
//
// The CUDA runtime calls the test programs make, with the real ABI from
// <cuda_runtime_api.h>. Device memory is host memory; copies and memsets that
// CUDA runs in stream order are queued on the stand-in streams.
//
//===----------------------------------------------------------------------===//
#include "FakeCuda.h"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

namespace {

thread_local cudaError_t LastError = cudaSuccess;
thread_local int CurrentDevice = 0;

cudaError_t note(cudaError_t Result) {
  if (Result != cudaSuccess)
    LastError = Result;
  return Result;
}

/// Every runtime entry point makes the primary context current first, like
/// the real runtime's lazy initialization.
struct RuntimeCall {
  RuntimeCall() { fakecuda::makePrimaryContextCurrent(); }
};

int deviceCount() {
  const char *Env = std::getenv("DISTLINT_FAKE_CUDA_DEVICES");
  int N = Env ? std::atoi(Env) : 8;
  return N > 0 ? N : 1;
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int *Count) {
  RuntimeCall Init;
  *Count = deviceCount();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int Device) {
  RuntimeCall Init;
  if (Device < 0 || Device >= deviceCount())
    return note(cudaErrorInvalidDevice);
  CurrentDevice = Device;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int *Device) {
  RuntimeCall Init;
  *Device = CurrentDevice;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void *Ptr) {
  RuntimeCall Init;
  fakecuda::synchronizeDevice(); // cudaFree synchronizes the device.
  std::free(Ptr);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMalloc(void **Ptr, size_t Size) {
  RuntimeCall Init;
  *Ptr = std::calloc(1, Size ? Size : 1);
  return *Ptr ? cudaSuccess : note(cudaErrorMemoryAllocation);
}

cudaError_t CUDARTAPI cudaMallocHost(void **Ptr, size_t Size) {
  return cudaMalloc(Ptr, Size);
}

cudaError_t CUDARTAPI cudaHostAlloc(void **Ptr, size_t Size, unsigned int) {
  return cudaMalloc(Ptr, Size);
}

cudaError_t CUDARTAPI cudaFreeHost(void *Ptr) {
  RuntimeCall Init;
  std::free(Ptr);
  return cudaSuccess;
}

// Synchronous copies go through the legacy default stream, which waits for
// the work of every blocking stream first.
cudaError_t CUDARTAPI cudaMemcpy(void *Dst, const void *Src, size_t Count,
                                 enum cudaMemcpyKind) {
  RuntimeCall Init;
  fakecuda::synchronizeDevice();
  std::memmove(Dst, Src, Count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemcpyAsync(void *Dst, const void *Src, size_t Count,
                                      enum cudaMemcpyKind, cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::enqueue(Stream, [=] { std::memmove(Dst, Src, Count); });
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemset(void *Dst, int Value, size_t Count) {
  RuntimeCall Init;
  fakecuda::synchronizeDevice();
  std::memset(Dst, Value, Count);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemsetAsync(void *Dst, int Value, size_t Count,
                                      cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::enqueue(Stream, [=] { std::memset(Dst, Value, Count); });
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *Stream) {
  RuntimeCall Init;
  *Stream = fakecuda::createStream();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                                unsigned int) {
  return cudaStreamCreate(Stream);
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::destroyStream(Stream);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::synchronizeStream(Stream);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSynchronize_ptsz(cudaStream_t Stream) {
  return cudaStreamSynchronize(Stream);
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t Stream) {
  RuntimeCall Init;
  return fakecuda::streamIdle(Stream) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t Stream, cudaEvent_t Event,
                                          unsigned int) {
  RuntimeCall Init;
  fakecuda::streamWaitEvent(Stream, Event);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  RuntimeCall Init;
  fakecuda::synchronizeDevice();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *Event) {
  RuntimeCall Init;
  *Event = fakecuda::createEvent();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *Event,
                                               unsigned int) {
  return cudaEventCreate(Event);
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::recordEvent(Event, Stream);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t Event) {
  RuntimeCall Init;
  return fakecuda::eventDone(Event) ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t Event) {
  RuntimeCall Init;
  fakecuda::synchronizeEvent(Event);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t Event) {
  RuntimeCall Init;
  fakecuda::destroyEvent(Event);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t Stream,
                                             enum cudaStreamCaptureMode) {
  RuntimeCall Init;
  return fakecuda::beginCapture(Stream) ? cudaSuccess
                                        : note(cudaErrorIllegalState);
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t Stream,
                                           cudaGraph_t *Graph) {
  RuntimeCall Init;
  void *G = fakecuda::endCapture(Stream);
  if (!G)
    return note(cudaErrorIllegalState);
  *Graph = static_cast<cudaGraph_t>(G);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(cudaStream_t Stream,
                                            enum cudaStreamCaptureStatus *Status) {
  RuntimeCall Init;
  *Status = fakecuda::isCapturing(Stream) ? cudaStreamCaptureStatusActive
                                          : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

// A graph's executable form is the graph itself in the stand-in.
cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *Exec,
                                           cudaGraph_t Graph,
                                           unsigned long long) {
  RuntimeCall Init;
  *Exec = reinterpret_cast<cudaGraphExec_t>(Graph);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t Exec, cudaStream_t Stream) {
  RuntimeCall Init;
  fakecuda::launchGraph(Exec, Stream);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t) { return cudaSuccess; }

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t Graph) {
  fakecuda::destroyGraph(Graph);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetLastError(void) {
  cudaError_t Result = LastError;
  LastError = cudaSuccess;
  return Result;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return LastError; }

const char *CUDARTAPI cudaGetErrorString(cudaError_t Error) {
  switch (Error) {
  case cudaSuccess:
    return "no error";
  case cudaErrorNotReady:
    return "device not ready";
  case cudaErrorInvalidDevice:
    return "invalid device ordinal";
  case cudaErrorMemoryAllocation:
    return "out of memory";
  default:
    return "unknown error (CUDA stand-in)";
  }
}

const char *CUDARTAPI cudaGetErrorName(cudaError_t Error) {
  return Error == cudaSuccess ? "cudaSuccess" : "cudaError (stand-in)";
}

} // extern "C"
