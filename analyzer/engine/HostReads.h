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

/// Does the host read a result of device work queued before Sync, after
/// Sync and before the next device work on some path? Loop (may be null)
/// bounds the search to the current iteration.
bool hostReadsSyncedResult(Engine &E, const clang::CallExpr *Sync,
                           const clang::Stmt *Loop);

/// Does this call queue or wait for device work (collective, training
/// step, sync, host wait, a user function that does)?
bool isDeviceWork(Engine &E, const clang::Expr *Call);

} // namespace distlint
