//===- NvccCommands.cpp - nvcc command lines as Clang CUDA ones -----------===//
//
// nvcc accepts every option with one or two dashes and most with either a
// separate value or `=value`. The table lists the options whose meaning must
// change for Clang; everything else passes through and cleanCommandLine()
// drops what Clang does not know. Options that take a separate value must be
// listed, or their value would be read as an input file.
//
//===----------------------------------------------------------------------===//
#include "CompilerFamilies.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace distlint {

namespace {
enum class NvccKind {
  Keep,             ///< Same meaning for Clang.
  Drop,             ///< Device code, linking, nvcc diagnostics: no value.
  DropWithValue,    ///< The same, with a value (separate or after '=').
  Compile,          ///< -dc / -dw / --compile: a compile, as -c.
  HostFlags,        ///< -Xcompiler a,b: flags for the host compiler.
  HostCompiler,     ///< -ccbin: the host compiler (with a value).
  Language,         ///< -x cu: the input language (with a value).
  Std,              ///< --std c++17 (nvcc allows a separate value).
  DefaultStream,    ///< --default-stream per-thread (with a value).
  Rename,           ///< nvcc's long spelling of a Clang option with a value.
  WarningsAsErrors, ///< -Werror <kind>: value only if it is an nvcc kind.
};

struct NvccOption {
  NvccKind Kind;
  const char *ClangSpelling = ""; ///< For Rename.
};

/// Options by name without their leading dashes.
NvccOption classify(llvm::StringRef Name) {
  using K = NvccKind;
  return llvm::StringSwitch<NvccOption>(Name)
      // GPU targets and device code generation.
      .Cases("arch", "gpu-architecture", "code", "gpu-code", {K::DropWithValue})
      .Cases("gencode", "generate-code", "rdc", "relocatable-device-code",
             {K::DropWithValue})
      .Cases("maxrregcount", "Xptxas", "ptxas-options", "Xnvlink",
             "nvlink-options", {K::DropWithValue})
      .Cases("Xcudafe", "Xfatbin", "fatbin-options", "Xarchive",
             "archive-options", {K::DropWithValue})
      .Cases("cudart", "cudadevrt", "threads", "t", "split-compile",
             {K::DropWithValue})
      .Cases("machine", "m", "keep-dir", "odir", "output-directory",
             {K::DropWithValue})
      .Cases("diag-suppress", "diag-warn", "diag-error", "time", "options-file",
             {K::DropWithValue})
      .Cases("optf", "ftz", "prec-div", "prec-sqrt", "fmad", {K::DropWithValue})
      .Cases("static-global-template-stub", "jump-table-density",
             "Xlinker-nvcc", "linker-options", {K::DropWithValue})
      .Cases("expt-relaxed-constexpr", "expt-extended-lambda",
             "extended-lambda", "forward-unknown-to-host-compiler",
             "forward-unknown-to-host-linker", {K::Drop})
      .Cases("lineinfo", "generate-line-info", "G", "device-debug",
             "use_fast_math", {K::Drop})
      .Cases("dlto", "dlink", "device-link", "keep",
             "allow-unsupported-compiler", {K::Drop})
      .Cases("restrict", "src-in-ptx", "resource-usage", "display-error-number",
             "err-no", {K::Drop})
      .Cases("extensible-whole-program", "ewp",
             "no-host-device-initializer-list", "no-host-device-move-forward",
             {K::Drop})
      .Cases("dc", "device-c", "dw", "device-w", "compile", {K::Compile})
      .Cases("Xcompiler", "compiler-options", {K::HostFlags})
      .Cases("ccbin", "compiler-bindir", {K::HostCompiler})
      .Cases("x", "x-language", {K::Language})
      .Case("std", {K::Std})
      .Case("default-stream", {K::DefaultStream})
      .Case("include-path", {K::Rename, "-I"})
      .Case("system-include", {K::Rename, "-isystem"})
      .Case("define-macro", {K::Rename, "-D"})
      .Case("undefine-macro", {K::Rename, "-U"})
      .Case("pre-include", {K::Rename, "-include"})
      .Case("output-file", {K::Rename, "-o"})
      .Case("Werror", {K::WarningsAsErrors})
      .Default({K::Keep});
}

bool isNvccWarningKind(llvm::StringRef V) {
  return llvm::StringSwitch<bool>(V)
      .Cases("all-warnings", "cross-execution-space-call", "reorder",
             "default-stream-launch", "missing-launch-bounds", true)
      .Cases("ext-lambda-captures-this", "deprecated-declarations", true)
      .Default(false);
}

/// <toolkit>/bin/nvcc -> <toolkit>, following links (/usr/bin/nvcc may be a
/// link into the toolkit).
std::string toolkitOf(llvm::StringRef Nvcc) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Nvcc, Real))
    Real = Nvcc;
  llvm::StringRef Bin = llvm::sys::path::parent_path(Real);
  if (llvm::sys::path::filename(Bin) != "bin")
    return "";
  llvm::SmallString<256> Root(llvm::sys::path::parent_path(Bin));
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "include", "cuda_runtime.h");
  return llvm::sys::fs::exists(Header) ? std::string(Root) : "";
}

void splitCommas(llvm::StringRef Value, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts)
    Out.push_back(P.str());
}
} // namespace

bool isNvcc(llvm::StringRef Arg0) {
  llvm::StringRef Name = llvm::sys::path::filename(Arg0);
  Name.consume_back(".exe");
  return Name == "nvcc";
}

std::vector<std::string>
translateNvccCommand(const std::vector<std::string> &Argv,
                     const std::string &CudaPath) {
  std::string HostCompiler = "c++";
  std::vector<std::string> Flags;
  for (size_t I = 1; I < Argv.size(); ++I) {
    llvm::StringRef Arg = Argv[I];
    if (!Arg.starts_with("-") || Arg == "-" || Arg == "--") {
      Flags.push_back(Argv[I]);
      continue;
    }
    llvm::StringRef Name = Arg.drop_front(Arg.starts_with("--") ? 2 : 1);
    auto [Key, Inline] = Name.split('=');
    bool HasInline = Name.contains('=');
    NvccOption Option = classify(Key);
    // The value: after '=' or the next argument.
    auto Value = [&]() -> std::string {
      if (HasInline)
        return Inline.str();
      return I + 1 < Argv.size() ? Argv[++I] : std::string();
    };
    switch (Option.Kind) {
    case NvccKind::Keep:
      // -isystem=/dir is nvcc's (and CMake's) spelling; to Clang a leading
      // '=' means "under the sysroot".
      if (Arg.starts_with("-isystem=") || Arg.starts_with("-I=")) {
        Flags.push_back(Key == "isystem" ? "-isystem" : "-I");
        Flags.push_back(Inline.str());
      } else {
        Flags.push_back(Argv[I]);
      }
      break;
    case NvccKind::Drop:
      break;
    case NvccKind::DropWithValue:
      Value();
      break;
    case NvccKind::Compile:
      Flags.push_back("-c");
      break;
    case NvccKind::HostFlags:
      splitCommas(Value(), Flags);
      break;
    case NvccKind::HostCompiler:
      HostCompiler = Value();
      break;
    case NvccKind::Language: {
      std::string Lang = Value();
      if (Lang != "cu")
        Flags.insert(Flags.end(), {"-x", Lang});
      break;
    }
    case NvccKind::Std:
      Flags.push_back("-std=" + Value());
      break;
    case NvccKind::DefaultStream:
      if (Value() == "per-thread")
        Flags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      break;
    case NvccKind::Rename:
      Flags.push_back(Option.ClangSpelling);
      Flags.push_back(Value());
      break;
    case NvccKind::WarningsAsErrors:
      // nvcc's -Werror takes warning kinds; a bare one (or GCC's spelling
      // forwarded to the host compiler) takes nothing. Either way it goes.
      if (!HasInline && I + 1 < Argv.size() &&
          llvm::all_of(llvm::split(Argv[I + 1], ','), isNvccWarningKind))
        ++I;
      break;
    }
  }
  std::string Toolkit = CudaPath.empty() ? toolkitOf(Argv[0]) : CudaPath;
  // Host side only: device code is compiled for a GPU the analysis never
  // sees, and no libdevice is needed to parse it.
  std::vector<std::string> Out = {HostCompiler, "-x",
                                  "cuda",       "--cuda-host-only",
                                  "-nocudalib", "-Wno-unknown-cuda-version"};
  if (!Toolkit.empty())
    Out.push_back("--cuda-path=" + Toolkit);
  Out.insert(Out.end(), Flags.begin(), Flags.end());
  return Out;
}

} // namespace distlint
