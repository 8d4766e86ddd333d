//===- Syncs.h - Which calls make the host wait for the device --*- C++ -*-===//
//
// A device-wide sync (cudaDeviceSynchronize, torch::cuda::synchronize,
// emptying the caching allocator), a stream or event sync, or an implicit
// one: a tensor's value copied to the host (item(), cpu(), to(kCPU),
// printing, comparing; cudaMemcpy device-to-host). Implicit syncs cost
// nothing on host tensors, so a read of a tensor that already is a host
// copy is not one. All knowledge of names comes from the API tables
// (DeviceSync, StreamSync, EventSync, ImplicitSync rows).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "clang/AST/Expr.h"

#include <string>

namespace distlint {

enum class SyncKind { None, Device, StreamOrEvent, Implicit };

struct SyncFact {
  SyncKind Kind = SyncKind::None;
  /// The API spelled for messages: "cudaDeviceSynchronize", "item",
  /// "to(kCPU)", "operator<<".
  std::string What;
};

/// What kind of sync Call is (None for a host tensor's read, a copy that
/// does not go to the host, a non-blocking conversion).
SyncFact syncAt(Engine &E, const clang::CallExpr *Call);

/// Is Object (a tensor, or a container of tensors) already a host copy, so
/// reading it waits for nothing?
bool isHostCopy(Engine &E, const clang::Expr *Object);

} // namespace distlint
