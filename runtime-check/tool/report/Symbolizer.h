//===- Symbolizer.h - Code addresses to file:line, offline ------*- C++ -*-===//
//
// The preload library records module + offset only; here they become source
// locations with llvm-symbolizer (LLVM 19), or addr2line when that is absent.
// All addresses of a module go to one symbolizer process.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace distlint {
namespace rt {

struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Function;
  bool known() const { return Line != 0 && !File.empty(); }
};

class Symbolizer {
public:
  /// Tool: a symbolizer command; empty picks $DISTLINT_RT_SYMBOLIZER,
  /// llvm-symbolizer-19, llvm-symbolizer, then addr2line.
  explicit Symbolizer(std::string Tool = "");

  void add(const std::string &Module, uint64_t Offset);
  /// Supplies an answer directly (tests, or a cache of earlier runs).
  void addResolved(const std::string &Module, uint64_t Offset,
                   std::vector<SourceLoc> Chain) {
    Resolved[{Module, Offset}] = std::move(Chain);
  }
  /// Symbolizes everything added since the last run.
  void run();
  /// Innermost (inlined) location first; empty when unknown.
  const std::vector<SourceLoc> &lookup(const std::string &Module,
                                       uint64_t Offset) const;
  const std::string &tool() const { return ToolPath; }

private:
  bool runLlvm(const std::string &Module, const std::vector<uint64_t> &Offsets);
  bool runAddr2line(const std::string &Module,
                    const std::vector<uint64_t> &Offsets);

  std::string ToolPath;
  bool IsLlvm = true;
  std::map<std::string, std::set<uint64_t>> Queue;
  std::map<std::pair<std::string, uint64_t>, std::vector<SourceLoc>> Resolved;
};

/// Runs Argv, returns its stdout (stderr discarded); false if it could not run.
bool runCapture(const std::vector<std::string> &Argv, std::string &Output,
                int *ExitCode = nullptr);
/// Finds an executable on PATH (or an absolute path that exists).
std::string findProgram(const std::string &Name);

} // namespace rt
} // namespace distlint
