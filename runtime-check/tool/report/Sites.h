//===- Sites.h - Source locations of recorded call-sites --------*- C++ -*-===//
#pragma once

#include "Merge.h"
#include "Symbolizer.h"

#include <string>
#include <vector>

namespace distlint {
namespace rt {

/// Lexically normalized absolute path ("a/./b/../c" -> "/cwd/a/c").
std::string normalizePath(const std::string &Path);
/// Path relative to the working directory when below it, else as is.
std::string displayPath(const std::string &Path);

class Sites {
public:
  /// Symbolizes every frame the analysis can mention, in one batch.
  Sites(const Analysis &A, Symbolizer &S);

  /// Source locations of one frame, innermost inlined first.
  std::vector<SourceLoc> frame(int Trace, PackedFrame F) const;
  /// All source locations of a record's frames (first user frame first).
  std::vector<SourceLoc> locations(int Trace, const Record &R) const;
  /// "file:line" of the record's call-site, or "module+0x…" when it has no
  /// line information, or "an unknown call-site".
  std::string where(int Trace, const Record &R) const;
  std::string where(int Trace, PackedFrame F) const;
  /// where(), plus " (called from f:l)" for the next recorded user frame.
  std::string whereWithCaller(int Trace, const Record &R) const;
  /// The best source location of the call-site (unknown() when none).
  SourceLoc primary(int Trace, const Record &R) const;
  const std::string &modulePath(int Trace, PackedFrame F) const;
  /// Is F a Python line (and how was it reached)?
  bool python(int Trace, PackedFrame F, PythonSiteKind *Kind = nullptr) const;

private:
  const Analysis &A;
  const Symbolizer &S;
};

} // namespace rt
} // namespace distlint
