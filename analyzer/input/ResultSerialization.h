//===- ResultSerialization.h - One TU's result as bytes ---------*- C++ -*-===//
//
// The outcome of analyzing one translation unit (findings with notes and
// fingerprint keys, the TU's file errors, tool errors such as a broken
// config, and the NOLINT counter) as a self-contained byte string. Worker
// processes send it back over a pipe (driver/Isolation.h); a result cache can
// store it on disk.
//
// The reader treats its input as untrusted: every length is checked against
// the bytes that remain before anything is allocated, and a truncated,
// oversized or foreign buffer is rejected with a one-line reason instead of
// being half-read.
//
// Layout (little-endian): "DLTU" magic, u32 format version, then
//   findings: u32 count, each {str rule, u8 severity, loc, str message,
//             u32 note count, each {loc, str message}, str fingerprint}
//   errors:   u32 count, each {str file, str message}
//   tool errors: u32 count, each str
//   u32 suppressed-by-NOLINT count, u32 header-filtered count
//   include closure: u32 count, each str
//   u32 analysis milliseconds, u8 parsed-on-a-shared-preamble
//   limits hit: u32 count, each str
//   str summaries (JSON: the TU's exported functions and references)
// where str = u32 byte length + bytes and loc = {str file, u32 line,
// u32 column}. Trailing bytes are an error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace distlint {

/// Everything one translation unit contributes to a run.
struct TranslationUnitResult {
  std::vector<Finding> Findings;
  /// This TU could not be (fully) analyzed: parse errors, a crash.
  std::vector<FileError> Errors;
  /// Errors of the tool's inputs found while analyzing the TU (a malformed
  /// .distlint.yaml): the run exits 2.
  std::vector<std::string> ToolErrors;
  unsigned SuppressedByNoLint = 0;
  /// Findings dropped by -header-filter / -exclude-header-filter.
  unsigned HeaderFiltered = 0;
  /// Absolute paths of every file the parse read, for the result cache's
  /// manifest (driver/speed/ResultCache.h); empty when nothing was parsed.
  std::vector<std::string> IncludeClosure;
  /// How long the analysis took (the cache's cost for --shard balancing).
  unsigned Milliseconds = 0;
  /// Parsed on a shared precompiled preamble (driver/speed/Preamble.h).
  bool UsedPreamble = false;
  /// The engine's limits hit while analyzing it (engine/Budget.h): its
  /// findings may be partial. --verbose prints them.
  std::vector<std::string> LimitsHit;
  /// The functions it defines and calls without a body, as JSON
  /// (driver/ProjectIndex.h); empty when it was not analyzed.
  std::string Summaries;
};

/// Bumped on any layout change; readers reject other versions.
constexpr unsigned ResultFormatVersion = 6;

std::string serializeResult(const TranslationUnitResult &R);

/// Parses what serializeResult wrote. On failure returns false, leaves Out
/// empty and sets Error to one line ("truncated at byte 17", ...).
bool deserializeResult(llvm::StringRef Bytes, TranslationUnitResult &Out,
                       std::string &Error);

} // namespace distlint
