//===- Harnesses.h - distlint's fuzz targets --------------------*- C++ -*-===//
//
// Each harness takes one input and must neither crash nor trip a sanitizer.
// They are plain functions so one replay binary (built in every build,
// ReplayMain.cpp) can run the kept crashers and seeds of all of them, while
// the libFuzzer binaries (DISTLINT_FUZZ=ON, clang-19) get one entry each
// (Entry.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

namespace distlint::fuzz {

/// A C++ source, parsed with testdata/include on the include path and run
/// through the engine and every rule.
int analyzeSource(const uint8_t *Data, size_t Size);
/// The first byte picks a reader: compile database, config, line filter,
/// baseline, serialized TU result; the rest is its input.
int readInputs(const uint8_t *Data, size_t Size);
/// LSP framing: every message of the stream, then the JSON and URI helpers.
int lspFraming(const uint8_t *Data, size_t Size);
/// A distlint-rt trace file, read and reported like `distlint-rt report`.
int traceReader(const uint8_t *Data, size_t Size);

} // namespace distlint::fuzz
