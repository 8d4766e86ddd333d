//===- MpiLaunch.cpp - How distlint-rt run starts an MPI job
//---------------===//
#include "MpiLaunch.h"
#include "Symbolizer.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace distlint {
namespace rt {

const char *const kRankEnvironment[] = {
    "LD_PRELOAD",         "DISTLINT_RT_DIR",   "DISTLINT_RT_TIMEOUT",
    "DISTLINT_RT_RUN_ID", "DISTLINT_RT_ABORT", nullptr};

static std::string baseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

bool isJobLauncher(const std::string &Command) {
  std::string Name = baseName(Command);
  for (const char *L :
       {"mpirun", "mpiexec", "orterun", "prterun", "srun", "mpirun.openmpi",
        "mpiexec.openmpi", "mpiexec.hydra", "mpirun.mpich", "mpiexec.mpich"})
    if (Name == L)
      return true;
  return false;
}

bool linksMpi(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  struct stat St;
  if (fstat(Fd, &St) != 0 || size_t(St.st_size) < sizeof(Elf64_Ehdr)) {
    close(Fd);
    return false;
  }
  size_t Size = size_t(St.st_size);
  void *Map = mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, Fd, 0);
  close(Fd);
  if (Map == MAP_FAILED)
    return false;
  const char *Base = static_cast<const char *>(Map);
  const auto *Eh = reinterpret_cast<const Elf64_Ehdr *>(Base);
  bool Found = false;
  auto Inside = [&](uint64_t Off, uint64_t Len) {
    return Off <= Size && Len <= Size - Off;
  };
  if (std::memcmp(Eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      Eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      Inside(Eh->e_shoff, uint64_t(Eh->e_shnum) * sizeof(Elf64_Shdr))) {
    const auto *Sh = reinterpret_cast<const Elf64_Shdr *>(Base + Eh->e_shoff);
    for (unsigned I = 0; I < Eh->e_shnum && !Found; ++I) {
      if (Sh[I].sh_type != SHT_DYNAMIC || Sh[I].sh_link >= Eh->e_shnum)
        continue;
      const Elf64_Shdr &Str = Sh[Sh[I].sh_link];
      if (!Inside(Sh[I].sh_offset, Sh[I].sh_size) ||
          !Inside(Str.sh_offset, Str.sh_size))
        continue;
      const auto *Dyn =
          reinterpret_cast<const Elf64_Dyn *>(Base + Sh[I].sh_offset);
      size_t N = Sh[I].sh_size / sizeof(Elf64_Dyn);
      for (size_t K = 0; K < N && Dyn[K].d_tag != DT_NULL; ++K) {
        if (Dyn[K].d_tag != DT_NEEDED || Dyn[K].d_un.d_val >= Str.sh_size)
          continue;
        const char *Name = Base + Str.sh_offset + Dyn[K].d_un.d_val;
        size_t Max = Str.sh_size - Dyn[K].d_un.d_val;
        if (strnlen(Name, Max) < Max && std::strncmp(Name, "libmpi", 6) == 0)
          Found = true;
      }
    }
  }
  munmap(Map, Size);
  return Found;
}

LaunchKind classifyCommand(const std::vector<std::string> &Command,
                           const std::string &ResolvedProgram) {
  if (!Command.empty() && isJobLauncher(Command.front()))
    return LaunchKind::LauncherChild;
  if (!ResolvedProgram.empty() && linksMpi(ResolvedProgram))
    return LaunchKind::MpiProgram;
  return LaunchKind::Ranks;
}

bool isOpenMpiLauncher(const std::string &Path) {
  std::string Cmd = "'" + Path + "' --version 2>&1";
  FILE *P = popen(Cmd.c_str(), "r");
  if (!P)
    return false;
  char Buf[512];
  std::string Out;
  while (fgets(Buf, sizeof(Buf), P))
    Out += Buf;
  pclose(P);
  return Out.find("Open MPI") != std::string::npos ||
         Out.find("OpenRTE") != std::string::npos;
}

MpiLauncher findMpiLauncher() {
  MpiLauncher L;
  for (const char *Name : {"mpirun", "mpiexec"}) {
    L.Path = findProgram(Name);
    if (!L.Path.empty())
      break;
  }
  if (!L.Path.empty())
    L.OpenMpi = isOpenMpiLauncher(L.Path);
  return L;
}

std::vector<std::string>
mpirunCommand(const std::string &Mpirun, int NProc,
              const std::vector<std::string> &Program) {
  std::vector<std::string> Cmd = {Mpirun, "-np", std::to_string(NProc),
                                  "--oversubscribe"};
  if (geteuid() == 0)
    Cmd.push_back("--allow-run-as-root"); // Containers and CI run as root.
  Cmd = withExports(Cmd);
  Cmd.insert(Cmd.end(), Program.begin(), Program.end());
  return Cmd;
}

std::vector<std::string> withExports(const std::vector<std::string> &Launcher) {
  std::vector<std::string> Cmd(Launcher.begin(),
                               Launcher.begin() + (Launcher.empty() ? 0 : 1));
  for (const char *const *V = kRankEnvironment; *V; ++V) {
    Cmd.push_back("-x"); // distlint-rt run sets each of them for the launcher.
    Cmd.push_back(*V);
  }
  if (!Launcher.empty())
    Cmd.insert(Cmd.end(), Launcher.begin() + 1, Launcher.end());
  return Cmd;
}

std::string mpirunHint(int NProc, const std::string &Preload,
                       const std::string &OutDir, double TimeoutSeconds,
                       const std::vector<std::string> &Program) {
  char Timeout[32];
  std::snprintf(Timeout, sizeof(Timeout), "%g", TimeoutSeconds);
  std::string S =
      "mpirun -np " + std::to_string(NProc) + " -x LD_PRELOAD=" + Preload +
      " -x DISTLINT_RT_DIR=" + OutDir + " -x DISTLINT_RT_TIMEOUT=" + Timeout;
  for (const std::string &A : Program)
    S += " " + A;
  return S + " && distlint-rt report " + OutDir;
}

} // namespace rt
} // namespace distlint
