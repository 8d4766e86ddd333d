//===- CompileCommands.cpp ------------------------------------------------===//
#include "CompileCommands.h"
#include "input/Paths.h"

#include "clang/Driver/Options.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace clang;

namespace distlint {

namespace {
bool isLauncher(llvm::StringRef Arg0) {
  llvm::StringRef Name = llvm::sys::path::filename(Arg0);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" ||
         Name == "icecc" || Name == "buildcache";
}

/// Flags Clang knows but that would turn harmless warnings into errors or
/// read GCC-built precompiled headers.
/// True (with a one-line Error) if Path cannot be read or is not JSON.
bool jsonSyntaxError(llvm::StringRef Path, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = Buffer.getError().message();
    return true;
  }
  auto Doc = nlohmann::json::parse((*Buffer)->getBuffer().begin(),
                                   (*Buffer)->getBuffer().end(), nullptr,
                                   /*allow_exceptions=*/false);
  if (Doc.is_discarded()) {
    Error = "not valid JSON";
    return true;
  }
  return false;
}

bool isDroppedFlag(llvm::StringRef A) {
  return A == "-Werror" || A.starts_with("-Werror=") ||
         A == "-pedantic-errors" || A == "-Wfatal-errors";
}
} // namespace

std::vector<std::string>
cleanCommandLine(std::vector<std::string> Argv, const std::string &ResourceDir,
                 bool OverrideResourceDir,
                 const std::vector<std::string> &ExtraBefore,
                 const std::vector<std::string> &ExtraAfter) {
  while (Argv.size() > 1 && isLauncher(Argv[0]))
    Argv.erase(Argv.begin());
  if (Argv.empty())
    return Argv;

  // Parse with Clang's own option table: anything it reports as unknown
  // would make the driver fail with "unknown argument".
  std::vector<const char *> CArgs;
  for (size_t I = 1; I < Argv.size(); ++I)
    CArgs.push_back(Argv[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  const llvm::opt::OptTable &Table = driver::getDriverOptTable();
  llvm::opt::InputArgList Parsed = Table.ParseArgs(
      CArgs, MissingIndex, MissingCount,
      llvm::opt::Visibility(driver::options::ClangOption));
  std::set<unsigned> Drop; // indexes into Argv
  for (const llvm::opt::Arg *A : Parsed) {
    unsigned Index = A->getIndex() + 1;
    if (A->getOption().getKind() == llvm::opt::Option::UnknownClass) {
      Drop.insert(Index);
      continue;
    }
    if (Index < Argv.size() && isDroppedFlag(Argv[Index]))
      Drop.insert(Index);
  }
  bool HasResourceDir = false;
  std::vector<std::string> Out = {Argv[0]};
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef A = Argv[I];
    if (Drop.count(I))
      continue;
    // Precompiled headers built by another compiler cannot be read.
    if (A == "-include-pch" && I + 1 < Argv.size()) {
      ++I;
      continue;
    }
    if (A == "-Xclang" && I + 2 < Argv.size() &&
        Argv[I + 1] == "-include-pch") {
      I += 3; // -Xclang -include-pch -Xclang <file>
      continue;
    }
    if (A == "-resource-dir" || A.starts_with("-resource-dir=")) {
      if (OverrideResourceDir) {
        if (A == "-resource-dir")
          ++I;
        continue;
      }
      HasResourceDir = true;
    }
    Out.push_back(Argv[I]);
  }

  std::vector<std::string> Before = ExtraBefore;
  if (!HasResourceDir && !ResourceDir.empty())
    Before.insert(Before.begin(), "-resource-dir=" + ResourceDir);
  Out.insert(Out.begin() + 1, Before.begin(), Before.end());

  std::vector<std::string> After = {"-Wno-unknown-warning-option",
                                    "-Wno-unused-command-line-argument",
                                    "-Wno-error",
                                    // no "N errors generated." on stderr
                                    "-fno-caret-diagnostics"};
  After.insert(After.end(), ExtraAfter.begin(), ExtraAfter.end());
  auto DashDash = std::find(Out.begin() + 1, Out.end(), "--");
  Out.insert(DashDash, After.begin(), After.end());
  tooling::addTargetAndModeForProgramName(Out, Out[0]);
  return Out;
}

bool isGccCompiler(llvm::StringRef Compiler) {
  llvm::SmallString<256> Real;
  llvm::StringRef Name = llvm::sys::path::filename(Compiler);
  // cc / c++ / mpicc are links or wrappers: look at what they point to.
  if (!llvm::sys::fs::real_path(Compiler, Real) &&
      !llvm::sys::path::filename(Real).contains("clang") &&
      (Name == "cc" || Name == "c++"))
    Name = llvm::sys::path::filename(Real);
  if (Name.contains("clang"))
    return false;
  // gcc, g++, x86_64-linux-gnu-gcc-12, g++-12, mpicc / mpicxx / mpic++
  // (Open MPI and MPICH wrap the system GCC on Debian).
  return Name.contains("gcc") || Name.contains("g++") || Name == "cc" ||
         Name == "c++" || Name.starts_with("mpic") || Name == "mpiCC";
}

std::string relaxForGcc(std::vector<std::string> &Argv) {
  if (Argv.empty() || !isGccCompiler(Argv[0]))
    return "";
  // Clang errors (DefaultError warnings) that GCC 12 only warns about.
  static const char *const Relaxed[] = {
      "implicit-function-declaration", "implicit-int", "int-conversion",
      "incompatible-function-pointer-types", "c++11-narrowing"};
  std::vector<std::string> Flags;
  std::string What;
  for (const char *Group : Relaxed) {
    Flags.push_back(std::string("-Wno-error=") + Group);
    What += (What.empty() ? "-W" : ", -W") + std::string(Group);
  }
  Argv.insert(Argv.begin() + 1, Flags.begin(), Flags.end());
  return "compiled like GCC (" + llvm::sys::path::filename(Argv[0]).str() +
         "): " + What + " are warnings, not errors";
}

const tooling::CompilationDatabase *
DatabaseCache::loadDir(const std::string &Dir, std::string &Error,
                       bool &Found) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = ByDir.find(Dir);
  if (It == ByDir.end()) {
    Entry E;
    llvm::SmallString<256> Json(Dir), Flags(Dir);
    llvm::sys::path::append(Json, "compile_commands.json");
    llvm::sys::path::append(Flags, "compile_flags.txt");
    std::string LoadError;
    if (llvm::sys::fs::exists(Json)) {
      E.Found = true;
      // Check the syntax first: Clang's loader prints YAML parse errors to
      // stderr itself, and a tool error must be one line.
      std::unique_ptr<tooling::CompilationDatabase> DB;
      if (jsonSyntaxError(Json, LoadError))
        DB = nullptr;
      else
        DB = tooling::JSONCompilationDatabase::loadFromFile(
            Json, LoadError, tooling::JSONCommandLineSyntax::AutoDetect);
      if (DB) {
        // Headers and files missing from the database borrow the command
        // of a similar file, like clangd.
        E.DB = tooling::inferTargetAndDriverMode(
            tooling::inferMissingCompileCommands(std::move(DB)));
      } else {
        llvm::StringRef Why = llvm::StringRef(LoadError).trim();
        E.Error = "cannot load compilation database " + std::string(Json) +
                  ": " + Why.split('\n').first.str();
      }
    } else if (llvm::sys::fs::exists(Flags)) {
      E.Found = true;
      E.DB = tooling::FixedCompilationDatabase::loadFromFile(Flags, LoadError);
      if (!E.DB)
        E.Error = "cannot load " + std::string(Flags) + ": " +
                  llvm::StringRef(LoadError).trim().split('\n').first.str();
    }
    It = ByDir.emplace(Dir, std::move(E)).first;
  }
  Found = It->second.Found;
  Error = It->second.Error;
  return It->second.DB.get();
}

const tooling::CompilationDatabase *
DatabaseCache::findUpward(const std::string &Dir, std::string &Error,
                          bool &Found, std::string *DatabaseDir) {
  std::string Cur = normalizePath(Dir);
  while (true) {
    const tooling::CompilationDatabase *DB = loadDir(Cur, Error, Found);
    if (Found) {
      if (DatabaseDir)
        *DatabaseDir = Cur;
      return DB;
    }
    std::string Parent = llvm::sys::path::parent_path(Cur).str();
    if (Parent.empty() || Parent == Cur)
      break;
    Cur = Parent;
  }
  Found = false;
  Error = "no compile_commands.json found in " + normalizePath(Dir) +
          " or its parents";
  return nullptr;
}

std::vector<std::string> buildDirsOfCwd() {
  std::vector<std::string> Dirs;
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return Dirs;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Cwd, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (!Name.starts_with("build") ||
        It->type() != llvm::sys::fs::file_type::directory_file)
      continue;
    llvm::SmallString<256> Json(It->path());
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json))
      Dirs.push_back(It->path());
  }
  std::sort(Dirs.begin(), Dirs.end());
  return Dirs;
}

std::string projectDirOf(const std::string &File) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(File);
  while (!Dir.empty()) {
    llvm::SmallString<256> Git(Dir), Lists(Dir);
    llvm::sys::path::append(Git, ".git");
    llvm::sys::path::append(Lists, "CMakeLists.txt");
    if (llvm::sys::fs::exists(Git))
      return Dir.str();
    if (auto Buffer = llvm::MemoryBuffer::getFile(Lists))
      if ((*Buffer)->getBuffer().contains_insensitive("project("))
        return Dir.str();
    llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
    if (Parent == Dir)
      break;
    Dir = Parent;
  }
  return "";
}

bool hasEntryUnder(const tooling::CompilationDatabase &DB,
                   const std::string &Dir) {
  if (Dir.empty())
    return true;
  for (const std::string &F : DB.getAllFiles())
    if (isUnder(normalizePath(F), Dir))
      return true;
  return false;
}

std::string describeOrigin(const std::string &DatabaseDir,
                           const tooling::CompileCommand &Cmd) {
  llvm::SmallString<256> Path(DatabaseDir);
  llvm::sys::path::append(Path, "compile_commands.json");
  if (!llvm::sys::fs::exists(Path)) {
    Path = DatabaseDir;
    llvm::sys::path::append(Path, "compile_flags.txt");
  }
  std::string Out = "compile database " + std::string(Path);
  llvm::StringRef From(Cmd.Heuristic);
  if (From.consume_front("inferred from "))
    Out += ", command borrowed from " + From.str();
  else if (!From.empty())
    Out += " (" + From.str() + ")";
  return Out;
}

} // namespace distlint
