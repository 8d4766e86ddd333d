//===- PendingTable.h - Operations in flight, inside the runtime -*- C++
//-*-===//
//
// The table of operations not complete yet: filled on the call's path
// (Pending.cpp), polled by the watchdog (Watchdog.cpp), reset in a forked
// child (Runtime.cpp). Internal to the preload library.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Runtime.h"

#include <atomic>
#include <cstdint>

namespace distlint {
namespace rt {

struct DriverApi;

// Ownership of pending entries: the thread that claims an entry is its only
// writer until it frees it or hands it over (AwaitEvent); an AwaitEvent entry
// is checked by whoever takes it with a CAS (the watchdog, or the owner when
// its block runs full). The watchdog only reads entries a thread holds and
// checks Generation to drop copies torn by reuse. Each thread claims from a
// block of its own, so the call's path needs no locked instruction; threads
// beyond the blocks share the rest of the table through a CAS.
enum PendingState : uint32_t {
  PendingFree = 0,
  PendingInCall,     ///< Inside the real call (the host may block there).
  PendingAwaitGroup, ///< Returned inside a group that has not ended yet.
  PendingAwaitEvent, ///< Waiting for Event; whoever looks takes it with a CAS.
  PendingClaimed,    ///< A shared entry being filled.
  PendingChecking,   ///< An AwaitEvent entry being queried (owner or watchdog).
};

constexpr unsigned kBlockEntries = 64; // A power of two.
constexpr unsigned kBlocks = 96;
constexpr unsigned kSharedEntries = 2048; // A power of two.
constexpr unsigned kSharedBase = kBlockEntries * kBlocks;
constexpr unsigned kPendingEntries = kSharedBase + kSharedEntries;
constexpr uint64_t kNoSlot = ~uint64_t(0);

/// A field the owner publishes under the entry's generation (a seqlock):
/// the watchdog copies it while it may change and throws the copy away when
/// the generation moved. Relaxed atomics make that copy defined behaviour
/// (plain moves on x86).
template <typename T> class Relaxed {
public:
  Relaxed &operator=(T X) {
    V.store(X, std::memory_order_relaxed);
    return *this;
  }
  operator T() const { return V.load(std::memory_order_relaxed); }

private:
  std::atomic<T> V{};
};

struct PendingEntry {
  std::atomic<uint32_t> State;
  std::atomic<uint32_t> Generation;
  uint32_t ReportedGeneration; ///< Written by the watchdog only.
  Relaxed<uint64_t> Slot;
  Relaxed<uint64_t> StartNs;
  Relaxed<CommState *> Comm;
  Relaxed<OpCode> Op;
  Relaxed<PackedFrame> Site;
  void *Event;
  void *EventCtx;
  void *Stream;
};

/// What the watchdog copied out of an entry.
struct PendingView {
  uint64_t Slot;
  uint64_t StartNs;
  CommState *Comm;
  OpCode Op;
  PackedFrame Site;
};

extern PendingEntry Pending[kPendingEntries];

/// Takes an AwaitEvent entry, queries its event, and frees it if the GPU
/// finished (marking the record completed). True if it freed the entry.
bool checkEvent(PendingEntry &E, const DriverApi *Cuda, uint64_t Now);
/// Frees every entry and this thread's block and group state (a forked
/// child: the parent's operations did not come along).
void resetPendingAfterFork();

/// Appends a record of Kind (a hang, the process's exit) for entry E or
/// for the process.
void appendSimpleRecord(TraceWriter &T, RecordKind Kind, const PendingView *E,
                        TraceRecord *Op, uint64_t Now);
/// One look at every pending entry: completes operations whose CUDA event
/// fired, reports those pending past the timeout (once each).
void pollOnce(TraceWriter &T, uint64_t Now, const DriverApi *Cuda);
/// Starts the watchdog thread once per process.
void startWatchdog();
void resetWatchdogAfterFork();

} // namespace rt
} // namespace distlint
