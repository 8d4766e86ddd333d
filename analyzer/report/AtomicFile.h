//===- AtomicFile.h - Write a report so readers never see half --*- C++ -*-===//
//
// --output and --write-baseline are written to a temporary file in the same
// directory and renamed over the target at the end, so an interrupted or
// crashed run leaves the previous report intact instead of a truncated one.
// The temporary file is removed on destruction without commit() and, via
// LLVM's signal handlers, when the process dies of a signal. Targets that are
// not regular files (/dev/stdout, a FIFO) are written directly.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace distlint {

class AtomicOutputFile {
public:
  AtomicOutputFile() = default;
  AtomicOutputFile(const AtomicOutputFile &) = delete;
  AtomicOutputFile &operator=(const AtomicOutputFile &) = delete;
  ~AtomicOutputFile();

  /// Creates the temporary file beside Path. On failure sets Error to
  /// "cannot write <Path>: <reason>".
  bool open(llvm::StringRef Path, std::string &Error);
  llvm::raw_fd_ostream &os() { return *OS; }
  bool isOpen() const { return OS != nullptr; }
  /// Flushes, closes and renames over the target.
  bool commit(std::string &Error);

private:
  std::string Target;
  std::string Temp; ///< Empty when writing the target directly.
  std::unique_ptr<llvm::raw_fd_ostream> OS;
  bool Committed = false;
};

/// In a forked child (driver/Isolation.h): the temporary files of the parent
/// must survive the child's crash, so LLVM's signal handlers in the child
/// stop removing them.
void keepTemporaryFilesOnChildCrash();

} // namespace distlint
