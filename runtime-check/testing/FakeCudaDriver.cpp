//===- FakeCudaDriver.cpp - Test-only libcuda.so.1 stand-in -----------------===//
//
// Owns the stream engine shared by the stand-in runtime and NCCL, and exports
// the few driver entry points the runtime checker resolves with dlopen: events,
// contexts and stream-capture queries, with the real ABI from <cuda.h>.
//
//===----------------------------------------------------------------------===//
#include "FakeCuda.h"

#include <cuda.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct CUctx_st {
  int Device = 0;
};

struct CUstream_st {
  std::mutex Mu;
  std::condition_variable WorkReady;
  std::condition_variable Drained;
  std::deque<fakecuda::Work> Queue;
  bool Running = false; ///< The worker is executing a work item.
  bool Stop = false;
  bool Capturing = false;
  std::vector<fakecuda::Work> Captured;
  std::thread Worker;

  CUstream_st() { Worker = std::thread([this] { run(); }); }

  void run() {
    std::unique_lock<std::mutex> Lock(Mu);
    for (;;) {
      WorkReady.wait(Lock, [this] { return Stop || !Queue.empty(); });
      if (Queue.empty() && Stop)
        return;
      fakecuda::Work Next = std::move(Queue.front());
      Queue.pop_front();
      Running = true;
      Lock.unlock();
      Next();
      Lock.lock();
      Running = false;
      if (Queue.empty())
        Drained.notify_all();
    }
  }
};

struct CUevent_st {
  std::mutex Mu;
  std::condition_variable Done;
  unsigned long long Recorded = 0;
  unsigned long long Completed = 0;
};

namespace {

struct Graph {
  std::vector<fakecuda::Work> Work;
};

CUctx_st ThePrimaryContext;
thread_local CUcontext CurrentContext = nullptr;

std::mutex StreamsMu;
std::vector<CUstream_st *> &liveStreams() {
  static auto *Streams = new std::vector<CUstream_st *>();
  return *Streams;
}

CUstream_st *defaultStream() {
  // Never destroyed: its worker may still run while the process exits.
  static CUstream_st *Default = [] {
    auto *S = new CUstream_st();
    std::lock_guard<std::mutex> Lock(StreamsMu);
    liveStreams().push_back(S);
    return S;
  }();
  return Default;
}

} // namespace

namespace fakecuda {

void makePrimaryContextCurrent() {
  if (!CurrentContext)
    CurrentContext = &ThePrimaryContext;
}

CUstream_st *resolveStream(CUstream_st *Stream) {
  if (Stream == nullptr || Stream == CU_STREAM_LEGACY ||
      Stream == CU_STREAM_PER_THREAD)
    return defaultStream();
  return Stream;
}

CUstream_st *createStream() {
  auto *S = new CUstream_st();
  std::lock_guard<std::mutex> Lock(StreamsMu);
  liveStreams().push_back(S);
  return S;
}

void destroyStream(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  if (Stream == defaultStream())
    return;
  {
    std::lock_guard<std::mutex> Lock(StreamsMu);
    auto &All = liveStreams();
    All.erase(std::remove(All.begin(), All.end(), Stream), All.end());
  }
  // Like cudaStreamDestroy: queued work still runs, then the stream goes away.
  {
    std::lock_guard<std::mutex> Lock(Stream->Mu);
    Stream->Stop = true;
  }
  Stream->WorkReady.notify_all();
  Stream->Worker.detach();
}

void enqueue(CUstream_st *Stream, Work Fn) {
  Stream = resolveStream(Stream);
  std::lock_guard<std::mutex> Lock(Stream->Mu);
  if (Stream->Capturing) {
    Stream->Captured.push_back(std::move(Fn));
    return;
  }
  Stream->Queue.push_back(std::move(Fn));
  Stream->WorkReady.notify_one();
}

void synchronizeStream(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  std::unique_lock<std::mutex> Lock(Stream->Mu);
  Stream->Drained.wait(Lock,
                       [&] { return Stream->Queue.empty() && !Stream->Running; });
}

bool streamIdle(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  std::lock_guard<std::mutex> Lock(Stream->Mu);
  return Stream->Queue.empty() && !Stream->Running;
}

void synchronizeDevice() {
  std::vector<CUstream_st *> All;
  {
    std::lock_guard<std::mutex> Lock(StreamsMu);
    All = liveStreams();
  }
  for (CUstream_st *S : All)
    synchronizeStream(S);
}

CUevent_st *createEvent() { return new CUevent_st(); }

void destroyEvent(CUevent_st *Event) {
  // Work that completes the event may still be queued; CUDA allows destroying
  // a recorded event, so the object is kept (test-only leak).
  (void)Event;
}

void recordEvent(CUevent_st *Event, CUstream_st *Stream) {
  unsigned long long Ticket;
  {
    std::lock_guard<std::mutex> Lock(Event->Mu);
    Ticket = ++Event->Recorded;
  }
  enqueue(Stream, [Event, Ticket] {
    std::lock_guard<std::mutex> Lock(Event->Mu);
    Event->Completed = std::max(Event->Completed, Ticket);
    Event->Done.notify_all();
  });
}

bool eventDone(CUevent_st *Event) {
  std::lock_guard<std::mutex> Lock(Event->Mu);
  return Event->Completed >= Event->Recorded;
}

void synchronizeEvent(CUevent_st *Event) {
  std::unique_lock<std::mutex> Lock(Event->Mu);
  Event->Done.wait(Lock, [&] { return Event->Completed >= Event->Recorded; });
}

void streamWaitEvent(CUstream_st *Stream, CUevent_st *Event) {
  unsigned long long Ticket;
  {
    std::lock_guard<std::mutex> Lock(Event->Mu);
    Ticket = Event->Recorded;
  }
  enqueue(Stream, [Event, Ticket] {
    std::unique_lock<std::mutex> Lock(Event->Mu);
    Event->Done.wait(Lock, [&] { return Event->Completed >= Ticket; });
  });
}

bool beginCapture(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  std::lock_guard<std::mutex> Lock(Stream->Mu);
  if (Stream->Capturing)
    return false;
  Stream->Capturing = true;
  Stream->Captured.clear();
  return true;
}

bool isCapturing(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  std::lock_guard<std::mutex> Lock(Stream->Mu);
  return Stream->Capturing;
}

void *endCapture(CUstream_st *Stream) {
  Stream = resolveStream(Stream);
  std::lock_guard<std::mutex> Lock(Stream->Mu);
  if (!Stream->Capturing)
    return nullptr;
  Stream->Capturing = false;
  auto *G = new Graph();
  G->Work = std::move(Stream->Captured);
  Stream->Captured.clear();
  return G;
}

void launchGraph(void *G, CUstream_st *Stream) {
  for (const Work &W : static_cast<Graph *>(G)->Work)
    enqueue(Stream, W);
}

void destroyGraph(void *G) { delete static_cast<Graph *>(G); }

} // namespace fakecuda

// ---- Driver API entry points (real ABI from <cuda.h>) ----------------------
extern "C" {

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuDriverGetVersion(int *Version) {
  *Version = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *Ctx) {
  *Ctx = CurrentContext;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext Ctx) {
  CurrentContext = Ctx;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *Event, unsigned int) {
  if (!CurrentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Event = fakecuda::createEvent();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent Event, CUstream Stream) {
  if (!CurrentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  fakecuda::recordEvent(Event, Stream);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventQuery(CUevent Event) {
  if (!CurrentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  return fakecuda::eventDone(Event) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult CUDAAPI cuEventSynchronize(CUevent Event) {
  fakecuda::synchronizeEvent(Event);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy_v2(CUevent Event) {
  fakecuda::destroyEvent(Event);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamIsCapturing(CUstream Stream,
                                     CUstreamCaptureStatus *Status) {
  *Status = fakecuda::isCapturing(Stream) ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                                          : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamQuery(CUstream Stream) {
  return fakecuda::streamIdle(Stream) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult CUDAAPI cuGetErrorString(CUresult Error, const char **Text) {
  switch (Error) {
  case CUDA_SUCCESS:
    *Text = "no error";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_READY:
    *Text = "device not ready";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_CONTEXT:
    *Text = "invalid device context";
    return CUDA_SUCCESS;
  default:
    *Text = "unknown error (CUDA stand-in)";
    return CUDA_SUCCESS;
  }
}

} // extern "C"
