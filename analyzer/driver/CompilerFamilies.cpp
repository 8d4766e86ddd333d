//===- CompilerFamilies.cpp - Launchers, MPI wrappers, CUDA, OpenMP -------===//
#include "CompilerFamilies.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"

#include <map>
#include <mutex>
#include <optional>

#ifndef DISTLINT_CLANG_RESOURCE_DIR
#define DISTLINT_CLANG_RESOURCE_DIR ""
#endif

namespace distlint {

//===--- Launchers and MPI wrappers
//----------------------------------------===//

bool isCompilerLauncher(llvm::StringRef Arg0) {
  llvm::StringRef Name = llvm::sys::path::filename(Arg0);
  return Name == "ccache" || Name == "sccache" || Name == "distcc" ||
         Name == "icecc" || Name == "buildcache";
}

bool isMpiWrapper(llvm::StringRef Arg0) {
  llvm::StringRef Name = llvm::sys::path::filename(Arg0);
  // Open MPI, MPICH, MVAPICH, Intel MPI; Debian's alternatives add
  // .openmpi / .mpich suffixes.
  static const char *const Bases[] = {
      "mpicc",    "mpicxx",  "mpic++", "mpiCC",   "mpif77",   "mpif90",
      "mpif08",   "mpifort", "mpiicc", "mpiicpc", "mpiicx",   "mpiicpx",
      "mpiifort", "mpiifx",  "mpigcc", "mpigxx",  "mpiclang", "mpiclang++"};
  for (const char *Base : Bases) {
    llvm::StringRef Rest = Name;
    if (Rest.consume_front(Base) &&
        (Rest.empty() || Rest.starts_with(".") || Rest.starts_with("-")))
      return true;
  }
  return false;
}

namespace {
/// Flags of a wrapper's full command line (MPICH's -show) that change how a
/// file compiles; the rest (-L, -l, -Wl,...) are for linking.
bool isCompileFlag(llvm::StringRef Arg) {
  for (llvm::StringRef Prefix :
       {"-I", "-D", "-U", "-isystem", "-idirafter", "-iquote", "-include",
        "-pthread", "-std=", "-f", "-m"})
    if (Arg.starts_with(Prefix))
      return true;
  return false;
}

/// Flags whose value is the next word.
bool takesSeparateValue(llvm::StringRef Arg) {
  return Arg == "-I" || Arg == "-D" || Arg == "-U" || Arg == "-isystem" ||
         Arg == "-idirafter" || Arg == "-iquote" || Arg == "-include";
}

std::vector<std::string> tokenize(llvm::StringRef Line) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *> Words;
  llvm::cl::TokenizeGNUCommandLine(Line, Saver, Words);
  return {Words.begin(), Words.end()};
}

/// Runs Program Args with stdout captured; nullopt if it could not run or
/// failed.
std::optional<std::string> capture(const std::string &Program,
                                   std::vector<llvm::StringRef> Args,
                                   std::string &Error) {
  llvm::SmallString<128> OutPath;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "distlint-wrapper", "txt", OutPath)) {
    Error = "cannot create a temporary file: " + EC.message();
    return std::nullopt;
  }
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutPath), llvm::StringRef("")};
  Args.insert(Args.begin(), Program);
  std::string RunError;
  int RC = llvm::sys::ExecuteAndWait(Program, Args, std::nullopt, Redirects,
                                     /*SecondsToWait=*/30, 0, &RunError);
  auto Buffer = llvm::MemoryBuffer::getFile(OutPath);
  llvm::sys::fs::remove(OutPath);
  if (RC != 0) {
    Error = RC < 0 ? RunError : "exit status " + std::to_string(RC);
    return std::nullopt;
  }
  if (!Buffer) {
    Error = "no output";
    return std::nullopt;
  }
  return (*Buffer)->getBuffer().trim().str();
}
} // namespace

WrapperExpansion parseWrapperAnswer(llvm::StringRef ShowmeCompile,
                                    llvm::StringRef ShowmeCommand,
                                    llvm::StringRef Show) {
  WrapperExpansion Out;
  if (!ShowmeCommand.empty()) { // Open MPI
    std::vector<std::string> Command = tokenize(ShowmeCommand);
    if (!Command.empty())
      Out.Compiler = Command.front();
    Out.Flags = tokenize(ShowmeCompile);
    return Out;
  }
  std::vector<std::string> Words = tokenize(Show);
  if (Words.empty())
    return Out;
  Out.Compiler = Words.front();
  for (size_t I = 1; I < Words.size(); ++I) {
    llvm::StringRef W = Words[I];
    if (takesSeparateValue(W) && I + 1 < Words.size()) {
      Out.Flags.insert(Out.Flags.end(), {Words[I], Words[I + 1]});
      ++I;
    } else if (isCompileFlag(W)) {
      Out.Flags.push_back(Words[I]);
    }
  }
  return Out;
}

bool queryMpiWrapper(const std::string &Path, WrapperExpansion &Out,
                     std::string &Error) {
  struct Answer {
    bool Ok;
    WrapperExpansion Expansion;
    std::string Error;
  };
  static std::mutex Mutex;
  static std::map<std::string, Answer> Answers;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Answers.find(Path);
  if (It == Answers.end()) {
    Answer A{false, {}, ""};
    std::string OpenMpiError, ShowError;
    // Open MPI answers --showme:*; MPICH and Intel MPI pass it on to the
    // compiler, which fails, and answer -show instead.
    std::optional<std::string> Compile =
        capture(Path, {"--showme:compile"}, OpenMpiError);
    std::optional<std::string> Command =
        Compile ? capture(Path, {"--showme:command"}, OpenMpiError)
                : std::nullopt;
    if (Compile && Command) {
      A.Expansion = parseWrapperAnswer(*Compile, *Command, "");
    } else if (std::optional<std::string> Show =
                   capture(Path, {"-show"}, ShowError)) {
      A.Expansion = parseWrapperAnswer("", "", *Show);
    } else {
      A.Error = "--showme:compile: " + OpenMpiError + "; -show: " + ShowError;
    }
    A.Ok = A.Error.empty() && !A.Expansion.Compiler.empty();
    if (A.Error.empty() && !A.Ok)
      A.Error = "the wrapper named no compiler";
    It = Answers.emplace(Path, std::move(A)).first;
  }
  Out = It->second.Expansion;
  Error = It->second.Error;
  return It->second.Ok;
}

//===--- OpenMP -----------------------------------------------------------===//

bool usesOpenMP(const std::vector<std::string> &Argv, llvm::StringRef Source) {
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-fopenmp" || A.starts_with("-fopenmp=") || A == "-qopenmp" ||
        A == "-fiopenmp" || A == "-openmp")
      return true;
  }
  static const llvm::Regex IncludesOmp(
      "^[ \t]*#[ \t]*include[ \t]*[<\"]omp\\.h[>\"]");
  llvm::SmallVector<llvm::StringRef> Lines;
  Source.split(Lines, '\n');
  for (llvm::StringRef Line : Lines)
    if (Line.contains("omp.h") && IncludesOmp.match(Line))
      return true;
  return false;
}

namespace {
bool hasOmpHeader(llvm::StringRef ResourceDir) {
  llvm::SmallString<256> Probe(ResourceDir);
  llvm::sys::path::append(Probe, "include", "omp.h");
  return llvm::sys::fs::exists(Probe);
}

/// A Clang 19 resource directory with omp.h (Debian's libomp-19-dev
/// installs it into LLVM's own); ResourceDir if it has one, "" if none does.
std::string resourceDirWithOpenMP(const std::string &ResourceDir) {
  for (std::string Candidate :
       {ResourceDir, std::string(DISTLINT_CLANG_RESOURCE_DIR),
        std::string("/usr/lib/llvm-" CLANG_VERSION_MAJOR_STRING
                    "/lib/clang/" CLANG_VERSION_MAJOR_STRING)})
    if (!Candidate.empty() && hasOmpHeader(Candidate))
      return Candidate;
  return "";
}

std::string readSource(const std::string &File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer)
    return "";
  // #include <omp.h> sits near the top; big generated files need not be read.
  return (*Buffer)->getBuffer().take_front(1 << 20).str();
}

bool isCudaSource(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cu" || Ext == ".cuh";
}

/// A Clang command compiling CUDA (CMAKE_CUDA_COMPILER=clang++, or -x cuda).
bool isClangCuda(const std::vector<std::string> &Argv, llvm::StringRef File) {
  if (!llvm::sys::path::filename(Argv[0]).contains("clang"))
    return false;
  for (size_t I = 1; I + 1 < Argv.size(); ++I)
    if (Argv[I] == "-x")
      return Argv[I + 1] == "cuda";
  return isCudaSource(File);
}

bool has(const std::vector<std::string> &Argv, llvm::StringRef Prefix) {
  return llvm::any_of(Argv, [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}

/// Program as the build ran it: a bare name from PATH, a relative path from
/// the command's directory.
std::string resolveProgram(const std::string &Program,
                           const std::string &Directory) {
  if (llvm::sys::path::is_absolute(Program))
    return Program;
  if (llvm::StringRef(Program).contains('/')) {
    llvm::SmallString<256> Path(Directory);
    llvm::sys::path::append(Path, Program);
    return std::string(Path);
  }
  if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program))
    return *Found;
  return Program;
}
} // namespace

std::string installedCudaShimDir() {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Dir, "..", "share", "distlint", "cuda");
  llvm::sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return llvm::sys::fs::is_directory(Dir) ? std::string(Dir) : "";
}

AdaptedCommand adaptToClang(std::vector<std::string> Argv,
                            const std::string &File,
                            const std::string &Directory,
                            const ToolchainPaths &Paths) {
  AdaptedCommand Out;
  Out.ResourceDir = Paths.ResourceDir;
  while (Argv.size() > 1 && isCompilerLauncher(Argv[0])) {
    Out.Notes.push_back("compiler launcher " +
                        llvm::sys::path::filename(Argv[0]).str() + " skipped");
    Argv.erase(Argv.begin());
  }
  if (Argv.empty())
    return Out;

  if (isMpiWrapper(Argv[0])) {
    std::string Wrapper = resolveProgram(Argv[0], Directory);
    WrapperExpansion Expansion;
    std::string Error;
    if (queryMpiWrapper(Wrapper, Expansion, Error)) {
      Out.Notes.push_back("MPI wrapper " + Argv[0] + " runs " +
                          Expansion.Compiler + " " +
                          llvm::join(Expansion.Flags, " "));
      Argv[0] = Expansion.Compiler;
      Argv.insert(Argv.begin() + 1, Expansion.Flags.begin(),
                  Expansion.Flags.end());
    } else {
      Out.Notes.push_back("warning: cannot ask MPI wrapper " + Wrapper +
                          " for its flags (" + Error +
                          "); its command is used as it is");
    }
  }

  bool Cuda = false;
  if (isNvcc(Argv[0])) {
    Argv = translateNvccCommand(Argv, "");
    Out.Notes.push_back("nvcc command translated to Clang's host-side CUDA "
                        "(-x cuda --cuda-host-only)");
    Cuda = true;
  } else if (isClangCuda(Argv, File)) {
    std::vector<std::string> Added;
    if (!has(Argv, "--cuda-host-only") && !has(Argv, "--cuda-device-only") &&
        !has(Argv, "--offload-host-only"))
      Added.push_back("--cuda-host-only");
    if (!has(Argv, "-nocudalib"))
      Added.push_back("-nocudalib");
    Added.push_back("-Wno-unknown-cuda-version");
    Argv.insert(Argv.begin() + 1, Added.begin(), Added.end());
    Cuda = true;
  }
  if (Cuda && !Paths.CudaShimDir.empty()) {
    // -idirafter: searched last, so a toolkit that still has these
    // headers wins.
    std::vector<std::string> Shim = {"-idirafter", Paths.CudaShimDir};
    llvm::SmallString<256> Compat(Paths.CudaShimDir);
    llvm::sys::path::append(Compat, "distlint_cuda_host_compat.h");
    if (llvm::sys::fs::exists(Compat))
      Shim.insert(Shim.end(), {"-include", std::string(Compat)});
    Argv.insert(Argv.begin() + 1, Shim.begin(), Shim.end());
  }

  if (!Paths.ResourceDirFixed && !hasOmpHeader(Out.ResourceDir) &&
      usesOpenMP(Argv, readSource(File))) {
    std::string WithOmp = resourceDirWithOpenMP(Out.ResourceDir);
    if (WithOmp.empty())
      Out.Notes.push_back(
          "warning: OpenMP is used but no Clang " CLANG_VERSION_MAJOR_STRING
          " omp.h was found (Debian: apt-get install "
          "libomp-" CLANG_VERSION_MAJOR_STRING "-dev)");
    else if (WithOmp != Out.ResourceDir) {
      Out.Notes.push_back("OpenMP: builtin headers and omp.h from " + WithOmp);
      Out.ResourceDir = WithOmp;
    }
  }
  Out.Argv = std::move(Argv);
  return Out;
}

} // namespace distlint
