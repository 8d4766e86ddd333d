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

#include "Engine.h"

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

/// Does the host read, right after Call (a helper that synchronizes) and
/// before the next device work, what the helper returned or what was queued
/// before it? Loop (may be null) bounds the search to its iteration.
bool hostReadsCallResult(Engine &E, const clang::CallExpr *Call,
                         const clang::Stmt *Loop);

/// Does this call queue or wait for device work (collective, training
/// step, sync, host wait, a user function that does)?
bool isDeviceWork(Engine &E, const clang::Expr *Call);

} // namespace distlint
