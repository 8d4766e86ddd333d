//===- Preamble.h - One precompiled preamble for many TUs -------*- C++ -*-===//
//
// The preamble of a file is its leading run of preprocessor directives and
// comments, as clangd defines it (clang::Lexer::ComputePreamble). TUs whose
// preambles have the same tokens (comments and blank lines do not count),
// whose effective flags are the same and, if the preamble has a quoted
// include (it resolves from the main file's directory first), whose main
// files sit in the same directory share one clang::PrecompiledPreamble.
// It is built once per run by a builder task (in its own worker process,
// Speedups.h) and written to a directory: the cache directory, where later
// runs reuse it (validated by the contents of every file it includes), or
// a directory of this run only. The TU workers load it from there.
//
// A loaded preamble puts the main file's directive locations in the
// preamble's own FileID (the file it was built from). PreambleUse maps them
// back to the current main file by token index, so findings, notes and
// NOLINT lookups are the same with and without sharing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Runner.h"

#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class FileManager;
class PCHContainerOperations;
} // namespace clang

namespace distlint {

class ContentHasher;

/// What decides whether two TUs can share: computed from the main file's
/// text and its compile command, without parsing.
struct PreambleShape {
  bool Shareable = false; ///< Has at least one directive.
  std::string Key;        ///< Hex digest of tokens, directory and flags.
  unsigned Size = 0;      ///< Bytes of the main file the preamble covers.
  bool EndsAtStartOfLine = false;
  std::vector<unsigned> TokenOffsets; ///< Start of every preamble token.
  std::string FirstInclude; ///< For --verbose: what the preamble pulls in.

  /// Shareable prefixes: the whole preamble (last) and every cut before a
  /// directive, after the first #include, outside any #if (shortest
  /// first). TUs that only begin alike share the longest common one.
  struct Prefix {
    std::string Key;
    unsigned Size;
    bool EndsAtStartOfLine;
    unsigned Tokens;
  };
  std::vector<Prefix> Prefixes;
  /// Makes Prefixes[Index] the preamble this TU uses.
  void choose(size_t Index);
};

/// The flags of Job that decide how its preamble parses: ClangTool's
/// argument adjustments applied, output/dependency-file flags and the main
/// file itself removed. Used by the preamble key and the result cache.
std::vector<std::string> effectiveFlags(const CompileJob &Job);

PreambleShape computePreambleShape(llvm::StringRef MainText,
                                   const CompileJob &Job);

/// One built (or loaded) preamble and who used it in this run.
struct SharedPreamble {
  std::string Key;
  /// Held while loading or building: later users wait for the first.
  std::mutex Mutex;
  /// The PCH; null if it could not be built (the TUs then parse normally).
  std::unique_ptr<llvm::MemoryBuffer> Pch;
  std::vector<unsigned> BuilderTokenOffsets;
  /// Absolute paths of the files the preamble includes (for the result
  /// cache's include closure and the on-disk validation).
  std::vector<std::string> Dependencies;
  std::string BuiltFrom;   ///< Main file it was built from.
  double BuildSeconds = 0; ///< How long building it took.
  /// Built by an earlier run (not by this run's builder task).
  bool FromEarlierRun = false;
  std::mutex UsersMutex;
  std::vector<std::string> Users; ///< Main files that used it.
};

/// Per-run registry of preambles, optionally persisted in CacheDir/preamble.
class PreambleStore {
public:
  /// Preambles live in Dir/preamble; RunId tells this run's preambles from
  /// those earlier runs left there (for --verbose).
  PreambleStore(std::string Dir, std::string RunId, ContentHasher &Hasher);
  ~PreambleStore();

  /// The slot for Key (created on first request).
  std::shared_ptr<SharedPreamble> slot(const std::string &Key);

  /// Is a valid preamble for Key on disk (so a single TU may use it)?
  bool onDisk(const std::string &Key);

  /// Loads (or, if MayBuild, builds and stores) the preamble of Shape once;
  /// later callers wait for the first. Returns null if none is usable.
  SharedPreamble *ensure(const PreambleShape &Shape,
                         const clang::CompilerInvocation &Invocation,
                         clang::FileManager &Files,
                         std::shared_ptr<clang::PCHContainerOperations> Ops,
                         const std::string &MainFile, bool MayBuild);

  /// Loads Key's preamble from disk into its slot (validated, the PCH
  /// mapped), so worker processes forked afterwards find it in memory.
  /// False if there is no valid one.
  bool preload(const std::string &Key);

  /// Every preamble used in this run, in key order (for --verbose).
  std::vector<std::shared_ptr<SharedPreamble>> all();

private:
  void build(SharedPreamble &P, const PreambleShape &Shape,
             const clang::CompilerInvocation &Invocation,
             clang::FileManager &Files,
             std::shared_ptr<clang::PCHContainerOperations> Ops,
             const std::string &MainFile);
  bool load(SharedPreamble &P);
  void store(const SharedPreamble &P);
  std::string pathFor(const std::string &Key, llvm::StringRef Ext) const;

  std::string Dir;
  std::string RunId;
  ContentHasher &Hasher;
  std::mutex Mutex;
  std::map<std::string, std::shared_ptr<SharedPreamble>> Slots;
};

/// How one TU uses a shared preamble: the invocation and file system
/// changes, and the location mapping back to the TU's main file.
class PreambleUse {
public:
  PreambleUse(const SharedPreamble &P, const PreambleShape &Mine);

  /// Points Invocation at the PCH (served from memory through FS).
  void apply(clang::CompilerInvocation &Invocation) const;
  /// Serves the PCH at the path apply() names (no copy of its bytes).
  void addTo(llvm::vfs::InMemoryFileSystem &Files) const;

  /// Offset in the preamble's FileID -> offset in this TU's main file.
  unsigned mapOffset(unsigned PreambleOffset) const;

private:
  std::string pchPath() const;
  const SharedPreamble &P;
  const PreambleShape &Mine;
};

} // namespace distlint
