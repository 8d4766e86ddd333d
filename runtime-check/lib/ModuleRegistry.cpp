//===- ModuleRegistry.cpp - The loaded objects call-sites point into ------===//
#include "ModuleRegistry.h"
#include "StackWalker.h"

#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace distlint {
namespace rt {

namespace {

struct ModuleSnapshot {
  size_t Count;
  ModuleRange Ranges[1]; // Count entries, sorted by Start.
};

struct ModuleRecord {
  std::string Path;
  uintptr_t Bias;
};

/// The bias of registry entries that name no loaded object (Python code).
constexpr uintptr_t kPseudoModuleBias = ~uintptr_t(0);

std::mutex RegistryMu;
std::vector<ModuleRecord> *Registry; // Index -> module; never shrinks.
std::atomic<const ModuleSnapshot *> Snapshot{nullptr};
unsigned long long LastAdds = ~0ull, LastSubs = ~0ull;
void (*ModuleListener)(uint32_t, const char *) = nullptr;

const char *const SkippedPrefixes[] = {
    "libnccl", "libmpi", "libopen-pal", "libopen-rte", "libpmix", "libucp",
    "libucs", "libuct", "libfabric", "libtorch", "libc10", "libc.so", "libc-",
    "libstdc++", "libgcc_s", "libdistlint-rt", "ld-linux", "libcudart",
    "libcuda.so", "libpthread", "libgloo", "libm.so", "libdl.so", "librt.so",
    "linux-vdso", "libpython", "libshm", "libomp", "libgomp", "libdnnl",
    // Sanitizer runtimes (clang's and GCC's): their interceptors (qsort's
    // comparator wrapper, pthread_create's) sit between user frames.
    "libclang_rt.", "libasan", "libubsan", "libtsan"};

const char *baseName(const char *Path) {
  const char *Slash = std::strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

} // namespace

bool isSkippedModulePath(const char *Path) {
  const char *Base = baseName(Path);
  for (const char *Prefix : SkippedPrefixes)
    if (std::strncmp(Base, Prefix, std::strlen(Prefix)) == 0)
      return true;
  if (const char *Extra = std::getenv("DISTLINT_RT_SKIP")) {
    // Comma-separated substrings of module paths.
    const char *P = Extra;
    while (*P) {
      const char *Comma = std::strchr(P, ',');
      size_t Len = Comma ? size_t(Comma - P) : std::strlen(P);
      if (Len) {
        std::string Needle(P, Len);
        if (std::strstr(Path, Needle.c_str()))
          return true;
      }
      if (!Comma)
        break;
      P = Comma + 1;
    }
  }
  return false;
}

namespace {

std::string mainProgramPath() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return "<main>";
  Buf[N] = 0;
  return Buf;
}

struct ScanState {
  std::vector<ModuleRange> Ranges;
  std::vector<std::pair<uint32_t, std::string>> Added;
  unsigned long long Adds = 0, Subs = 0;
};

uint32_t moduleIndexLocked(const std::string &Path, uintptr_t Bias,
                           ScanState &State) {
  for (size_t I = 0; I < Registry->size(); ++I)
    if ((*Registry)[I].Bias == Bias && (*Registry)[I].Path == Path)
      return uint32_t(I);
  Registry->push_back({Path, Bias});
  uint32_t Index = uint32_t(Registry->size() - 1);
  State.Added.emplace_back(Index, Path);
  return Index;
}

int collectModule(dl_phdr_info *Info, size_t, void *Arg) {
  auto &State = *static_cast<ScanState *>(Arg);
  State.Adds = Info->dlpi_adds;
  State.Subs = Info->dlpi_subs;
  std::string Path = Info->dlpi_name && Info->dlpi_name[0] ? Info->dlpi_name
                                                           : mainProgramPath();
  bool Skip = isSkippedModulePath(Path.c_str());
  uint32_t Index = ~0u;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type != PT_LOAD || !(Ph.p_flags & PF_X))
      continue;
    if (Index == ~0u)
      Index = moduleIndexLocked(Path, Info->dlpi_addr, State);
    uintptr_t Start = Info->dlpi_addr + Ph.p_vaddr;
    State.Ranges.push_back(
        {Start, Start + Ph.p_memsz, Info->dlpi_addr, Index, Skip});
  }
  return 0;
}

/// Rescans loaded objects when the loader reports a change.
} // namespace

void refreshModules() {
  std::vector<std::pair<uint32_t, std::string>> Added;
  {
    std::lock_guard<std::mutex> Lock(RegistryMu);
    if (!Registry)
      Registry = new std::vector<ModuleRecord>();
    ScanState State;
    dl_iterate_phdr(collectModule, &State);
    if (State.Adds == LastAdds && State.Subs == LastSubs && Snapshot.load())
      return;
    LastAdds = State.Adds;
    LastSubs = State.Subs;
    std::sort(State.Ranges.begin(), State.Ranges.end(),
              [](const ModuleRange &A, const ModuleRange &B) {
                return A.Start < B.Start;
              });
    size_t Bytes =
        sizeof(ModuleSnapshot) + State.Ranges.size() * sizeof(ModuleRange);
    auto *Snap = static_cast<ModuleSnapshot *>(std::malloc(Bytes));
    Snap->Count = State.Ranges.size();
    std::copy(State.Ranges.begin(), State.Ranges.end(), Snap->Ranges);
    // Old snapshots are leaked on purpose: readers hold no lock.
    Snapshot.store(Snap, std::memory_order_release);
    Added = std::move(State.Added);
  }
  if (ModuleListener)
    for (auto &M : Added)
      ModuleListener(M.first, M.second.c_str());
}

const ModuleRange *findModule(uintptr_t Pc, bool MayRefresh) {
  for (int Attempt = 0; Attempt < 2; ++Attempt) {
    const ModuleSnapshot *Snap = Snapshot.load(std::memory_order_acquire);
    if (Snap) {
      const ModuleRange *Begin = Snap->Ranges,
                        *End = Snap->Ranges + Snap->Count;
      const ModuleRange *It = std::upper_bound(
          Begin, End, Pc,
          [](uintptr_t V, const ModuleRange &R) { return V < R.Start; });
      if (It != Begin && Pc < (It - 1)->End)
        return It - 1;
    }
    if (!MayRefresh)
      return nullptr;
    refreshModules();
  }
  return nullptr;
}

std::vector<std::string> knownModulePaths() {
  refreshModules();
  std::lock_guard<std::mutex> Lock(RegistryMu);
  std::vector<std::string> Paths;
  if (Registry)
    for (const auto &M : *Registry)
      Paths.push_back(M.Path);
  return Paths;
}

uint32_t internPseudoModule(const std::string &Name) {
  uint32_t Index;
  {
    std::lock_guard<std::mutex> Lock(RegistryMu);
    if (!Registry)
      Registry = new std::vector<ModuleRecord>();
    for (size_t I = 0; I < Registry->size(); ++I)
      if ((*Registry)[I].Bias == kPseudoModuleBias &&
          (*Registry)[I].Path == Name)
        return uint32_t(I);
    Registry->push_back({Name, kPseudoModuleBias});
    Index = uint32_t(Registry->size() - 1);
  }
  if (ModuleListener)
    ModuleListener(Index, Name.c_str());
  return Index;
}

void setModuleListener(void (*Listener)(uint32_t, const char *)) {
  ModuleListener = Listener;
}

} // namespace rt
} // namespace distlint
