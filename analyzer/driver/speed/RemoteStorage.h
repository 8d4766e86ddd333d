//===- RemoteStorage.h - Result-cache entries on a shared server -*- C++
//-*-===//
//
// The storage teams already run for ccache, with ccache 4's `remote_storage`
// URL forms and attributes:
//   http://[user:password@]host[:port][/path]   GET/PUT <path>/<key>
//                                               (e.g. nginx WebDAV)
//   redis://[[user:]password@]host[:port][/db]  GET/SET distlint:<key>
//   ...|read-only                               never written (untrusted
//                                               clients read shared results)
// Entries are content addressed (the key is a hash of everything that
// decides the value), so a value once stored never changes. Network errors
// count as misses: a broken server makes distlint slower, never wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace distlint {

class RemoteStorage {
public:
  virtual ~RemoteStorage();
  /// The value, or nothing on a miss or any error.
  virtual std::optional<std::string> get(const std::string &Key) = 0;
  /// False on error. Not called when readOnly().
  virtual bool put(const std::string &Key, llvm::StringRef Value) = 0;

  bool readOnly() const { return ReadOnly; }
  const std::string &url() const { return Url; }

protected:
  bool ReadOnly = false;
  std::string Url;
  friend std::unique_ptr<RemoteStorage> openRemoteStorage(llvm::StringRef,
                                                          std::string &);
};

/// Parses Spec; null and a one-line Error if it is malformed. Connects
/// lazily (nothing is contacted here).
std::unique_ptr<RemoteStorage> openRemoteStorage(llvm::StringRef Spec,
                                                 std::string &Error);

} // namespace distlint
