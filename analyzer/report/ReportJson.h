//===- ReportJson.h - Findings as JSON, both ways ---------------*- C++ -*-===//
//
// One JSON shape for a finding everywhere it is written or read back: the
// `--format=json` report, result-cache entries and `distlint merge` inputs.
//   {"rule","severity","file","line","column","message",
//    "notes":[{"file","line","column","message"}],"fingerprint"}
// With a Root, paths under it are written relative to it (and read back
// against another Root), so cache entries move between checkouts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"

#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>

#include <string>

namespace distlint {

using OrderedJson = nlohmann::ordered_json;

/// Root empty: paths as they are.
OrderedJson findingToJson(const Finding &F, llvm::StringRef Root = "");
/// False and a one-line Error on a malformed object.
bool findingFromJson(const OrderedJson &J, llvm::StringRef Root, Finding &Out,
                     std::string &Error);

OrderedJson fileErrorToJson(const FileError &E, llvm::StringRef Root = "");
bool fileErrorFromJson(const OrderedJson &J, llvm::StringRef Root,
                       FileError &Out, std::string &Error);

/// A report written by --format=json: findings and errors (tool ignored).
bool resultFromJson(llvm::StringRef Text, AnalysisResult &Out,
                    std::string &Error);

} // namespace distlint
