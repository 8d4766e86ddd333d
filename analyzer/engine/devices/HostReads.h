//===- HostReads.h - Does the host use what a sync waited for? -*- C++ -*-===//
//
// A stream or event synchronization is needed when the host then reads what
// the device produced: a buffer an asynchronous copy filled, a tensor's
// data, the event's timing. This facility walks the CFG forward from a sync
// to the next device work (or the end of the loop iteration) and says
// whether such a read happens on some path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h" // class Engine (the facade), by reference
#include "clang/AST/Expr.h"
#include "engine/loops/Loops.h"

namespace distlint {

/// What the host does with the result of device work queued before Sync,
/// after Sync and before the next device work: reads it on some path,
/// returns it to the caller (a helper that waits and hands back a host
/// copy), or neither. Loop (may be null) bounds the search to its iteration.
enum class SyncedResult { Read, Returned, Unread };
SyncedResult syncedResultUse(Engine &E, const clang::CallExpr *Sync,
                             const clang::Stmt *Loop);

/// Does the host read a result of device work queued before Sync, after
/// Sync and before the next device work on some path? Loop (may be null)
/// bounds the search to the current iteration.
bool hostReadsSyncedResult(Engine &E, const clang::CallExpr *Sync,
                           const clang::Stmt *Loop);

/// The same for a sync that runs every step of Step.Loop, in the loop's
/// function or in a helper: where a helper hands the results back (returns
/// them, or the device wrote them through a pointer or reference its caller
/// passed), the caller's reads after the call count, up to the loop.
bool hostReadsSyncedResult(Engine &E, const clang::CallExpr *Sync,
                           const StepContext &Step);

/// Does this call queue or wait for device work (collective, training
/// step, sync, host wait, a user function that does)?
bool isDeviceWork(Engine &E, const clang::Expr *Call);

} // namespace distlint
