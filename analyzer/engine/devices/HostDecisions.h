//===- HostDecisions.h - Does the host decide on a device value? -*- C++
//-*-===//
//
// A copy of device data to the host (item(), cpu(), cudaMemcpy to the host)
// waits for the device. It is needed where the host decides something on the
// value — a branch, a loop condition, an assertion, an early stop — and
// stray where the value is only printed, logged or accumulated. This
// facility follows the copied value through the variables it is stored in
// (and through helpers that hand it back, up to the step loop) to the
// conditions that test it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h"
#include "engine/loops/Loops.h"

namespace distlint {

/// Does a condition the host evaluates in each step (in the step loop, or
/// anywhere in a helper on the way from the loop to Copy) depend on the
/// value Copy brings to the host?
bool hostDecidesOnCopy(Engine &E, const clang::CallExpr *Copy,
                       const StepContext &Step);

} // namespace distlint
