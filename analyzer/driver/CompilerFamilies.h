//===- CompilerFamilies.h - Compile commands of other compilers -*- C++ -*-===//
//
// Compile databases name the compiler the build used: an MPI wrapper
// (mpicc, mpicxx, mpiicc), nvcc, or either behind a launcher (ccache,
// sccache, distcc). Clang 19 cannot run those commands as they are: the
// wrapper's include paths are hidden inside the wrapper, nvcc's flags are not
// Clang's, and OpenMP's and CUDA 13's headers need finding. adaptToClang()
// turns such a command into one Clang parses like the build did; the generic
// clean-up (cleanCommandLine) runs after it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace distlint {

/// Where an installation keeps what adaptToClang adds to commands.
struct ToolchainPaths {
  /// The resource directory the command will get (builtin headers).
  std::string ResourceDir;
  /// True if the user chose ResourceDir (--resource-dir): kept as is.
  bool ResourceDirFixed = false;
  /// Headers CUDA 13 dropped but Clang 19's CUDA wrapper still includes
  /// (share/distlint/cuda next to the binary); searched last, only in CUDA
  /// translation units.
  std::string CudaShimDir;
};

/// share/distlint/cuda next to the running binary (<prefix>/bin/..), or ""
/// if it is not there.
std::string installedCudaShimDir();

/// The command, adapted; ResourceDir is the one to give it (the OpenMP
/// headers may live in another Clang 19 resource directory); Notes say what
/// changed, for --verbose.
struct AdaptedCommand {
  std::vector<std::string> Argv;
  std::string ResourceDir;
  std::vector<std::string> Notes;
};

/// Sees through launchers, expands MPI wrappers, translates nvcc commands
/// (and completes Clang CUDA ones) to Clang's host-side CUDA, and finds
/// omp.h for OpenMP translation units. File is the source the command
/// compiles; Directory the command's working directory.
AdaptedCommand adaptToClang(std::vector<std::string> Argv,
                            const std::string &File,
                            const std::string &Directory,
                            const ToolchainPaths &Paths);

//--- The steps, for tests ------------------------------------------------

/// Is Arg0 a compiler launcher (ccache, sccache, distcc, icecc, buildcache)?
bool isCompilerLauncher(llvm::StringRef Arg0);

/// Is Arg0 an MPI compiler wrapper (mpicc, mpicxx, mpic++, mpiCC, mpif90,
/// mpiicc, mpiicpx, mpicc.openmpi, ...)?
bool isMpiWrapper(llvm::StringRef Arg0);

/// What an MPI wrapper adds to a compile: the compiler it runs and the
/// preprocessor flags it passes.
struct WrapperExpansion {
  std::string Compiler;
  std::vector<std::string> Flags;
};

/// Parses a wrapper's answer: Open MPI's `--showme:compile` (flags only) or
/// MPICH / Intel MPI's `-show` (a whole command line, compiler first: only
/// the flags that matter to a compile are kept).
WrapperExpansion parseWrapperAnswer(llvm::StringRef ShowmeCompile,
                                    llvm::StringRef ShowmeCommand,
                                    llvm::StringRef Show);

/// Asks the wrapper at Path (once per path and process; thread-safe).
/// False with a one-line Error if it could not be asked.
bool queryMpiWrapper(const std::string &Path, WrapperExpansion &Out,
                     std::string &Error);

/// Is this nvcc (nvcc, /usr/local/cuda-13.0/bin/nvcc, nvcc.exe)?
bool isNvcc(llvm::StringRef Arg0);

/// An nvcc command as a Clang host-side CUDA command: nvcc-only flags
/// dropped, -Xcompiler's host flags unpacked, the toolkit of this nvcc as
/// --cuda-path. CudaPath empty: from the nvcc path (<toolkit>/bin/nvcc).
std::vector<std::string>
translateNvccCommand(const std::vector<std::string> &Argv,
                     const std::string &CudaPath);

/// Does the command (or the source, via #include <omp.h>) use OpenMP?
bool usesOpenMP(const std::vector<std::string> &Argv, llvm::StringRef Source);

} // namespace distlint
