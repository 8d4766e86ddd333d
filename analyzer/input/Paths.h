//===- Paths.h - Path spelling shared by all outputs ------------*- C++ -*-===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace distlint {

/// Absolute (against Base, or the process cwd when Base is empty), with
/// "." and ".." removed and native separators. Symlinks are kept.
std::string normalizePath(llvm::StringRef Path, llvm::StringRef Base = "");

/// Path relative to Root with '/' separators if it lies under Root,
/// otherwise Path unchanged.
std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root);

/// True if Path is Root or lies under it.
bool isUnder(llvm::StringRef Path, llvm::StringRef Root);

/// Is this (absolute, normalized) path user code rather than an installed
/// third-party file? Files under ProjectRoot always are; files under /usr,
/// /opt or /nix/store otherwise are not, even when included with -I.
bool isUserPath(llvm::StringRef Path, llvm::StringRef ProjectRoot);

/// The git top-level containing Dir, or "" if there is none (checks for a
/// .git entry walking up; no git process is started).
std::string findGitRoot(llvm::StringRef Dir);

/// ProjectRoot if set, else the git top-level of the cwd, else the cwd.
std::string resolveProjectRoot(llvm::StringRef ProjectRoot);

} // namespace distlint
