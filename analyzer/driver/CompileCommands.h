//===- CompileCommands.h - Finding and cleaning compile commands -*- C++ -*-===//
#pragma once

#include "Runner.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace distlint {

/// Makes a GCC (or other compiler's) command line acceptable to Clang 19:
/// drops a compiler launcher (ccache...), arguments Clang's driver does not
/// know (-fconcepts-diagnostics-depth=, -fanalyzer, ...), -Werror and
/// -pedantic-errors, PCH flags, and adds Args before/after as clang-tidy's
/// --extra-arg-before/--extra-arg do, the resource directory and flags that
/// keep GCC-only warning names quiet.
std::vector<std::string>
cleanCommandLine(std::vector<std::string> Argv, const std::string &ResourceDir,
                 bool OverrideResourceDir,
                 const std::vector<std::string> &ExtraBefore,
                 const std::vector<std::string> &ExtraAfter);

/// Is this compiler GCC (gcc, g++, cc/c++ resolving to GCC, an MPI wrapper
/// around it, a cross or versioned name such as x86_64-linux-gnu-g++-12)?
bool isGccCompiler(llvm::StringRef Compiler);

/// Compile like the user's compiler: if Argv[0] is GCC, make the errors
/// Clang 19 raises where GCC 12 only warns by default (implicit function
/// declarations, implicit int and int/pointer conversions in C, narrowing in
/// C++) warnings, so the file is analyzed. The flags go right after argv[0]:
/// the command's own flags still win. Returns what was relaxed, for
/// --verbose (empty: nothing done).
std::string relaxForGcc(std::vector<std::string> &Argv);

/// Loads compilation databases once per directory. Thread-safe.
class DatabaseCache {
public:
  /// compile_commands.json (or compile_flags.txt) in Dir or its parents.
  /// Null + Error if none or a malformed one is found (Found tells which:
  /// Found && !DB means the file exists but could not be loaded).
  const clang::tooling::CompilationDatabase *
  findUpward(const std::string &Dir, std::string &Error, bool &Found,
             std::string *DatabaseDir = nullptr);
  /// The database in exactly Dir, or null (Error set if malformed).
  const clang::tooling::CompilationDatabase *
  loadDir(const std::string &Dir, std::string &Error, bool &Found);

private:
  struct Entry {
    std::unique_ptr<clang::tooling::CompilationDatabase> DB;
    bool Found = false;
    std::string Error;
  };
  std::mutex Mutex;
  std::map<std::string, Entry> ByDir;
};

/// build*/ directories of the current directory holding a database,
/// sorted by name.
std::vector<std::string> buildDirsOfCwd();

/// The source root File belongs to: the nearest directory above it with a
/// .git entry or a CMakeLists.txt that declares project(). Empty if none.
std::string projectDirOf(const std::string &File);

/// Does DB compile at least one file under Dir (always true for Dir "")?
bool hasEntryUnder(const clang::tooling::CompilationDatabase &DB,
                   const std::string &Dir);

/// "compile database <dir>/compile_commands.json" plus ", command borrowed
/// from <file>" when the database inferred Cmd from a similar file.
std::string describeOrigin(const std::string &DatabaseDir,
                           const clang::tooling::CompileCommand &Cmd);

} // namespace distlint
