//===- CompilerFamiliesTest.cpp - launchers, MPI wrappers, nvcc, OpenMP ---===//
#include "CompilerFamilies.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sys/stat.h>

using namespace distlint;

namespace {
using Args = std::vector<std::string>;

bool has(const Args &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}
bool hasPrefix(const Args &V, llvm::StringRef Prefix) {
  return std::any_of(V.begin(), V.end(), [&](const std::string &A) {
    return llvm::StringRef(A).starts_with(Prefix);
  });
}
size_t indexOf(const Args &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) - V.begin();
}

/// A scratch directory removed at the end of the test.
struct TempDir {
  llvm::SmallString<128> Path;
  TempDir() { llvm::sys::fs::createUniqueDirectory("distlint-families", Path); }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string file(llvm::StringRef Name, llvm::StringRef Text,
                   bool Executable = false) const {
    llvm::SmallString<128> P(Path);
    llvm::sys::path::append(P, Name);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P));
    std::ofstream(std::string(P)) << Text.str();
    if (Executable)
      chmod(P.c_str(), 0755);
    return std::string(P);
  }
};

TEST(CompilerFamilies, LaunchersAreSeenThrough) {
  AdaptedCommand Out = adaptToClang(
      {"/usr/bin/ccache", "sccache", "/usr/bin/g++", "-c", "a.cpp"}, "a.cpp",
      "/", {});
  ASSERT_FALSE(Out.Argv.empty());
  EXPECT_EQ(Out.Argv[0], "/usr/bin/g++");
  EXPECT_EQ(Out.Notes.size(), 2u);
}

TEST(CompilerFamilies, RecognizesMpiWrappers) {
  for (const char *Name :
       {"mpicc", "/usr/bin/mpicxx", "mpic++", "mpiCC", "mpif90", "mpiicc",
        "mpiicpx", "mpicc.openmpi", "mpicxx.mpich", "mpicc-4.1"})
    EXPECT_TRUE(isMpiWrapper(Name)) << Name;
  for (const char *Name : {"gcc", "mpirun", "mpiccx2", "clang++", "mpi"})
    EXPECT_FALSE(isMpiWrapper(Name)) << Name;
}

TEST(CompilerFamilies, ParsesOpenMpiAndMpichAnswers) {
  WrapperExpansion OpenMpi = parseWrapperAnswer(
      "-I/usr/lib/openmpi/include -I/usr/lib/openmpi/include/openmpi", "gcc",
      "");
  EXPECT_EQ(OpenMpi.Compiler, "gcc");
  EXPECT_EQ(OpenMpi.Flags, (Args{"-I/usr/lib/openmpi/include",
                                 "-I/usr/lib/openmpi/include/openmpi"}));
  WrapperExpansion Mpich = parseWrapperAnswer(
      "", "",
      "icx -I/opt/intel/mpi/include -D MPICH_SKIP_MPICXX -isystem /opt/x "
      "-L/opt/intel/mpi/lib -Xlinker --enable-new-dtags -lmpifort -lmpi "
      "-Wl,-rpath,/opt/intel/mpi/lib -pthread");
  EXPECT_EQ(Mpich.Compiler, "icx");
  EXPECT_EQ(Mpich.Flags,
            (Args{"-I/opt/intel/mpi/include", "-D", "MPICH_SKIP_MPICXX",
                  "-isystem", "/opt/x", "-pthread"}));
}

TEST(CompilerFamilies, AsksEachWrapperOnce) {
  TempDir Dir;
  std::string Count = std::string(Dir.Path) + "/count";
  // Answers like MPICH: --showme:* is passed on to the compiler, which fails.
  std::string Wrapper =
      Dir.file("bin/mpicc",
               "#!/bin/sh\necho x >> '" + Count +
                   "'\ncase \"$1\" in\n  -show) echo 'gcc -I/opt/mpich/include "
                   "-L/opt/mpich/lib -lmpi' ;;\n  *) exit 1 ;;\nesac\n",
               /*Executable=*/true);
  for (int I = 0; I < 3; ++I) {
    AdaptedCommand Out = adaptToClang({Wrapper, "-O2", "-c", "solver.c"},
                                      "solver.c", std::string(Dir.Path), {});
    EXPECT_EQ(Out.Argv,
              (Args{"gcc", "-I/opt/mpich/include", "-O2", "-c", "solver.c"}));
  }
  std::ifstream In(Count);
  int Lines = 0;
  for (std::string L; std::getline(In, L);)
    ++Lines;
  EXPECT_EQ(Lines, 2) << "--showme:compile, then -show; then cached";
}

TEST(CompilerFamilies, MissingWrapperKeepsTheCommandWithAWarning) {
  Args Command = {"/nonexistent/bin/mpicxx", "-O2", "-c", "a.cpp"};
  AdaptedCommand Out = adaptToClang(Command, "a.cpp", "/", {});
  EXPECT_EQ(Out.Argv, Command);
  ASSERT_EQ(Out.Notes.size(), 1u);
  EXPECT_TRUE(llvm::StringRef(Out.Notes[0]).starts_with("warning: cannot ask"))
      << Out.Notes[0];
}

TEST(CompilerFamilies, TranslatesNvccFlags) {
  TempDir Toolkit;
  std::string Nvcc = Toolkit.file("bin/nvcc", "", true);
  Toolkit.file("include/cuda_runtime.h", "");
  Args Out = translateNvccCommand(
      {Nvcc,
       "-forward-unknown-to-host-compiler",
       "-isystem=/opt/cub",
       "-I/usr/local/cuda/include",
       "-O2",
       "-arch=sm_90",
       "-arch",
       "sm_80",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
       "-gencode",
       "arch=compute_80,code=sm_80",
       "--expt-relaxed-constexpr",
       "-Xcompiler",
       "-fopenmp,-Wall",
       "-Xcompiler=-fPIC",
       "-rdc=true",
       "-ccbin",
       "g++-12",
       "--std",
       "c++17",
       "-x",
       "cu",
       "-Werror",
       "all-warnings",
       "--default-stream",
       "per-thread",
       "-t",
       "4",
       "-lineinfo",
       "-dc",
       "k.cu",
       "-o",
       "k.o"},
      "");
  EXPECT_EQ(Out[0], "g++-12");
  EXPECT_LT(indexOf(Out, "cuda"), indexOf(Out, "k.cu"));
  EXPECT_EQ(Out[indexOf(Out, "cuda") - 1], "-x");
  for (const char *Want :
       {"--cuda-host-only", "-nocudalib", "-O2", "-I/usr/local/cuda/include",
        "-fopenmp", "-Wall", "-fPIC", "-std=c++17", "-c", "k.cu", "-o", "k.o",
        "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "/opt/cub"})
    EXPECT_TRUE(has(Out, Want)) << Want;
  EXPECT_TRUE(has(Out, "--cuda-path=" + std::string(Toolkit.Path)));
  EXPECT_EQ(Out[indexOf(Out, "/opt/cub") - 1], "-isystem");
  // nvcc-only options and their values are gone; a stray value would be
  // read as an input file.
  for (const char *Gone :
       {"-arch=sm_90", "-arch", "sm_80", "-gencode",
        "arch=compute_80,code=sm_80", "--expt-relaxed-constexpr", "-rdc=true",
        "-ccbin", "cu", "-Werror", "all-warnings", "per-thread", "4", "-t",
        "-lineinfo", "-dc", "c++17", "-forward-unknown-to-host-compiler"})
    EXPECT_FALSE(has(Out, Gone)) << Gone;
  EXPECT_FALSE(hasPrefix(Out, "--generate-code"));
}

TEST(CompilerFamilies, CudaShimOnlyInCudaUnits) {
  ToolchainPaths Paths;
  Paths.CudaShimDir = "/opt/distlint/share/distlint/cuda";
  AdaptedCommand Cu = adaptToClang(
      {"/usr/local/cuda/bin/nvcc", "-O2", "-c", "k.cu"}, "k.cu", "/", Paths);
  EXPECT_TRUE(has(Cu.Argv, "-idirafter"));
  EXPECT_TRUE(has(Cu.Argv, Paths.CudaShimDir));
  AdaptedCommand ClangCu = adaptToClang(
      {"clang++", "--cuda-gpu-arch=sm_90", "-c", "k.cu"}, "k.cu", "/", Paths);
  EXPECT_TRUE(has(ClangCu.Argv, "--cuda-host-only"));
  EXPECT_TRUE(has(ClangCu.Argv, "-nocudalib"));
  EXPECT_TRUE(has(ClangCu.Argv, Paths.CudaShimDir));
  AdaptedCommand Cpp =
      adaptToClang({"g++", "-O2", "-c", "a.cpp"}, "a.cpp", "/", Paths);
  EXPECT_EQ(Cpp.Argv, (Args{"g++", "-O2", "-c", "a.cpp"}));
}

TEST(CompilerFamilies, DetectsOpenMP) {
  EXPECT_TRUE(usesOpenMP({"gcc", "-fopenmp", "-c", "a.c"}, ""));
  EXPECT_TRUE(usesOpenMP({"icx", "-qopenmp", "-c", "a.c"}, ""));
  EXPECT_TRUE(
      usesOpenMP({"gcc", "-c", "a.c"}, "int x;\n  #  include <omp.h>\n"));
  EXPECT_FALSE(
      usesOpenMP({"gcc", "-c", "a.c"}, "// see omp.h\n#include <mpi.h>\n"));
}

TEST(CompilerFamilies, OpenMPUnitsGetAResourceDirWithOmpH) {
  const std::string System = "/usr/lib/llvm-19/lib/clang/19";
  if (!llvm::sys::fs::exists(System + "/include/omp.h"))
    GTEST_SKIP() << "libomp-19-dev is not installed";
  TempDir Bare; // a resource directory without omp.h
  Bare.file("include/stddef.h", "");
  std::string Source = Bare.file("solver.c", "#include <omp.h>\n");
  ToolchainPaths Paths;
  Paths.ResourceDir = std::string(Bare.Path);
  AdaptedCommand Omp =
      adaptToClang({"gcc", "-fopenmp", "-c", "x.c"}, "x.c", "/", Paths);
  EXPECT_EQ(Omp.ResourceDir, System);
  AdaptedCommand Included =
      adaptToClang({"gcc", "-c", Source}, Source, "/", Paths);
  EXPECT_EQ(Included.ResourceDir, System);
  AdaptedCommand Plain = adaptToClang({"gcc", "-c", "x.c"}, "x.c", "/", Paths);
  EXPECT_EQ(Plain.ResourceDir, Paths.ResourceDir);
  Paths.ResourceDirFixed = true; // --resource-dir is the user's choice
  AdaptedCommand Fixed =
      adaptToClang({"gcc", "-fopenmp", "-c", "x.c"}, "x.c", "/", Paths);
  EXPECT_EQ(Fixed.ResourceDir, Paths.ResourceDir);
}
} // namespace
