//===- AtomicFile.cpp -----------------------------------------------------===//
#include "report/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <mutex>
#include <set>

namespace distlint {

namespace {
std::mutex TempMutex;
std::set<std::string> &liveTemporaries() {
  static std::set<std::string> Live;
  return Live;
}
void track(const std::string &Path, bool Live) {
  std::lock_guard<std::mutex> Lock(TempMutex);
  if (Live)
    liveTemporaries().insert(Path);
  else
    liveTemporaries().erase(Path);
}
} // namespace

void keepTemporaryFilesOnChildCrash() {
  for (const std::string &Path : liveTemporaries())
    llvm::sys::DontRemoveFileOnSignal(Path);
}

bool AtomicOutputFile::open(llvm::StringRef Path, std::string &Error) {
  Target = Path.str();
  llvm::sys::fs::file_status Status;
  bool Exists = !llvm::sys::fs::status(Target, Status);
  if (Exists && llvm::sys::fs::is_directory(Status)) {
    Error = "cannot write " + Target + ": it is a directory";
    return false;
  }
  std::error_code EC;
  if (Exists && !llvm::sys::fs::is_regular_file(Status)) {
    OS = std::make_unique<llvm::raw_fd_ostream>(Target, EC,
                                                llvm::sys::fs::OF_Text);
  } else {
    llvm::SmallString<256> Model(Target);
    Model += ".tmp-%%%%%%%%";
    int FD = -1;
    llvm::SmallString<256> TempPath;
    EC = llvm::sys::fs::createUniqueFile(Model, FD, TempPath,
                                         llvm::sys::fs::OF_Text);
    if (!EC) {
      Temp = std::string(TempPath);
      llvm::sys::RemoveFileOnSignal(Temp);
      track(Temp, true);
      OS = std::make_unique<llvm::raw_fd_ostream>(FD, /*shouldClose=*/true);
    }
  }
  if (EC) {
    OS.reset();
    Error = "cannot write " + Target + ": " + EC.message();
    return false;
  }
  return true;
}

bool AtomicOutputFile::commit(std::string &Error) {
  if (!OS) {
    Error = "cannot write " + Target + ": not open";
    return false;
  }
  OS->close();
  bool Failed = OS->has_error();
  std::string Why = Failed ? OS->error().message() : "";
  OS->clear_error();
  OS.reset();
  if (!Failed && !Temp.empty()) {
    if (std::error_code EC = llvm::sys::fs::rename(Temp, Target)) {
      Failed = true;
      Why = EC.message();
    }
  }
  if (Failed) {
    Error = "cannot write " + Target + ": " + Why;
    return false;
  }
  if (!Temp.empty()) {
    llvm::sys::DontRemoveFileOnSignal(Temp);
    track(Temp, false);
  }
  Committed = true;
  return true;
}

AtomicOutputFile::~AtomicOutputFile() {
  if (OS) {
    OS->close();
    OS->clear_error();
  }
  if (!Committed && !Temp.empty()) {
    llvm::sys::fs::remove(Temp);
    llvm::sys::DontRemoveFileOnSignal(Temp);
    track(Temp, false);
  }
}

} // namespace distlint
