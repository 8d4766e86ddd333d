//===- EngineFacts.cpp ----------------------------------------------------===//
#include "engine/EngineFacts.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>

namespace distlint {

llvm::StringRef internOriginText(llvm::StringRef What) {
  if (What.empty())
    return {};
  // Workers of one process share it; the set only grows by the few texts
  // the API tables and the launcher variables can name.
  static std::mutex Lock;
  static llvm::StringSet<> Texts;
  std::lock_guard<std::mutex> Guard(Lock);
  return Texts.insert(What).first->getKey();
}

} // namespace distlint
