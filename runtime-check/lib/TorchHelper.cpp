//===- TorchHelper.cpp - Loading libdistlint-rt-torch.so ------------------===//
//
// The helper is not linked with LibTorch (one build serves programs whose
// LibTorch lives anywhere), so its references to c10 resolve through the
// global scope. A C++ program has libc10 there; Python's `import torch`
// loads torch/_C and with it libc10 and libtorch_cpu with RTLD_LOCAL, where
// a later dlopen cannot see them. So the copies already loaded are made
// global first (dlopen RTLD_NOLOAD | RTLD_GLOBAL on their own paths: no new
// library is loaded, and only LibTorch's own symbols become visible).
//
//===----------------------------------------------------------------------===//
#include "TorchHelper.h"
#include "Support.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

namespace {

/// LibTorch libraries the helper refers to (by base-name prefix).
const char *const HelperDependencies[] = {"libc10.so", "libtorch_cpu.so",
                                          "libc10_cuda.so", "libtorch_cuda.so"};

int collectTorchLibrary(dl_phdr_info *Info, size_t, void *Arg) {
  const char *Path = Info->dlpi_name;
  if (!Path || !*Path)
    return 0;
  const char *Slash = std::strrchr(Path, '/');
  const char *Base = Slash ? Slash + 1 : Path;
  for (const char *Prefix : HelperDependencies)
    if (std::strncmp(Base, Prefix, std::strlen(Prefix)) == 0)
      static_cast<std::vector<std::string> *>(Arg)->push_back(Path);
  return 0;
}

/// Makes the loaded LibTorch libraries global; false when libc10 is not
/// loaded (the helper must never pull LibTorch into a process).
bool promoteLoadedTorch() {
  std::vector<std::string> Paths;
  dl_iterate_phdr(collectTorchLibrary, &Paths);
  bool HaveC10 = false;
  for (const std::string &Path : Paths) {
    void *Handle = dlopen(Path.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_GLOBAL);
    if (!Handle)
      continue;
    HaveC10 |= Path.find("libc10.so") != std::string::npos;
    dlclose(Handle); // Drops only the reference RTLD_NOLOAD took.
  }
  return HaveC10;
}

std::string helperPath() {
  if (const char *Env = std::getenv("DISTLINT_RT_TORCH_LIB"); Env && *Env)
    return Env;
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&helperPath), &Info) || !Info.dli_fname)
    return "";
  std::string Path = Info.dli_fname;
  return Path.substr(0, Path.rfind('/') + 1) + "libdistlint-rt-torch.so";
}

TorchHelper loadHelper() {
  TorchHelper H;
  std::string Path = helperPath();
  const char *Why = nullptr;
  void *Lib = nullptr;
  if (Path.empty())
    Why = "not found next to libdistlint-rt.so";
  else if (!promoteLoadedTorch())
    Why = "no libc10 loaded in this process";
  else if (!(Lib = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL)))
    Why = dlerror();
  auto Abi =
      Lib ? reinterpret_cast<DlrtTorchAbiFn>(dlsym(Lib, "dlrt_torch_abi"))
          : nullptr;
  if (Abi && Abi() == kDlrtTorchAbi) {
    H.Describe = reinterpret_cast<DlrtTorchDescribeFn>(
        dlsym(Lib, "dlrt_torch_describe"));
    H.Group =
        reinterpret_cast<DlrtTorchGroupFn>(dlsym(Lib, "dlrt_torch_group"));
  } else if (Lib) {
    Why = "built for another LibTorch interface";
  }
  if (!H.Describe || !H.Group)
    logLine(
        "LibTorch process groups: %s not usable (%s); collectives are recorded "
        "without tensor counts, types or shapes",
        Path.empty() ? "libdistlint-rt-torch.so" : Path.c_str(),
        Why ? Why : "entry points missing");
  return H;
}

} // namespace

const TorchHelper &torchHelper() {
  static const TorchHelper H = loadHelper();
  return H;
}

} // namespace rt
} // namespace distlint
