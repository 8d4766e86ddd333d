//===- Devices.h - Which device tensors live on ----------------*- C++ -*-===//
//
// What a device expression denotes (torch::Device, DeviceType, device
// strings, tensor options), and whether anything in the TU may put tensors
// on a CUDA device. A device chosen at run time (a string from the command
// line, a Device parameter nobody in the TU passes, a ternary on
// torch::cuda::is_available()) counts as possibly CUDA. All knowledge of
// names comes from the DeviceSelect rows of the API tables.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engine/EngineFacts.h" // class Engine (the facade), by reference
#include "clang/AST/Expr.h"

namespace distlint {

enum class DeviceKind { None, Cpu, Cuda, Unknown };

/// The device X denotes; None when X names no device at all (a dtype, a
/// tensor).
DeviceKind deviceOf(Engine &E, const clang::Expr *X);

/// May any tensor of this TU live on a CUDA device?
bool mayUseCuda(Engine &E);
/// Where CUDA first becomes possible (invalid when !mayUseCuda).
clang::SourceLocation firstCudaUse(Engine &E);

/// A tensor type: a class with a method that copies its data to the host
/// (an ImplicitSync row such as at::Tensor::item).
bool isTensorType(Engine &E, clang::QualType T);
/// torch::Device / DeviceType: a class constructed by a DeviceSelect row, or
/// an enum with DeviceSelect enumerators.
bool isDeviceType(Engine &E, clang::QualType T);

} // namespace distlint
