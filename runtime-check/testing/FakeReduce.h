//===- FakeReduce.h - Stand-in element types and reductions -*- C++ -*-===//
//
// What the stand-in computes: the size of each ncclDataType_t and the
// elementwise reduction of the ranks' inputs (half and bfloat16 through
// float), in rank order so that every rank gets bit-identical results.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nccl.h>

#include <cstddef>
#include <vector>

/// Bytes per element; 0 for a type the stand-in does not know.
size_t typeSize(ncclDataType_t Type);
/// Reduces Inputs[0..N) elementwise into Out (fp8 types: nothing, refused
/// at the call).
void reduce(void *Out, const std::vector<const char *> &Inputs, size_t Count,
            ncclDataType_t Type, ncclRedOp_t Op);
