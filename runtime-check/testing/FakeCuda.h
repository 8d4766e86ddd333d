//===- FakeCuda.h - Test-only CUDA stand-in: streams and events --*- C++ -*-===//
//
// The test-only stand-ins (libcuda.so.1, libcudart.so.13, libnccl.so.2) treat
// "device" memory as host memory, but keep CUDA's asynchrony: work queued on a
// stream runs later on that stream's worker thread, so an NCCL operation whose
// peers never arrive leaves the host free until it synchronizes, exactly the
// situation the runtime checker has to diagnose on a GPU.
//
// This header is shared by the three stand-in libraries only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>

struct CUstream_st;
struct CUevent_st;

namespace fakecuda {

using Work = std::function<void()>;

/// Like cudart's lazy primary-context set-up: the calling thread gets the one
/// device context as its current context.
void makePrimaryContextCurrent();

/// Maps the special handles (NULL, legacy, per-thread) to the default stream.
CUstream_st *resolveStream(CUstream_st *Stream);
CUstream_st *createStream();
void destroyStream(CUstream_st *Stream);
/// Queues Fn on Stream (or records it into the graph being captured there).
void enqueue(CUstream_st *Stream, Work Fn);
void synchronizeStream(CUstream_st *Stream);
bool streamIdle(CUstream_st *Stream);
/// Waits until every stream has run all of its queued work.
void synchronizeDevice();

CUevent_st *createEvent();
void destroyEvent(CUevent_st *Event);
void recordEvent(CUevent_st *Event, CUstream_st *Stream);
bool eventDone(CUevent_st *Event);
void synchronizeEvent(CUevent_st *Event);
/// Makes Stream's later work wait until Event completes.
void streamWaitEvent(CUstream_st *Stream, CUevent_st *Event);

bool beginCapture(CUstream_st *Stream);
bool isCapturing(CUstream_st *Stream);
/// Ends capture; returns an opaque graph owning the captured work.
void *endCapture(CUstream_st *Stream);
void launchGraph(void *Graph, CUstream_st *Stream);
void destroyGraph(void *Graph);

} // namespace fakecuda
