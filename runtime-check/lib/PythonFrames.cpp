//===- PythonFrames.cpp - Python call-sites for the records ---------------===//
//
// The GIL: a thread that issues a collective from Python released the GIL
// in the binding (c10d's calls do) or still holds it; either way it has its
// own thread state, and PyGILState_Ensure takes the GIL back the way the
// binding itself will when the call returns, so reading the frames adds no
// wait the call did not already have. Threads without a Python thread state
// (LibTorch's autograd and worker threads) never take the GIL here: another
// thread may hold it while it waits for them. Their records name the line
// that called backward(), which the startup hook publishes.
//
// Code objects are classified once (their file decides) and kept alive by
// the cache, so a cached pointer never names a newer object. The cache is
// touched only with the GIL held, which serializes it.
//
//===----------------------------------------------------------------------===//
#include "PythonFrames.h"
#include "Support.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace distlint {
namespace rt {

std::atomic<int> PythonState{PythonUnknown};

namespace {

// ---- The C API, resolved at run time
// ---------------------------------------------------------

using PyObj = void *;

struct PythonApi {
  int (*IsInitialized)();
  int (*IsFinalizing)(); ///< Py_IsFinalizing (3.13) or _Py_IsFinalizing.
  const char *(*GetVersion)();
  int (*GILStateEnsure)(); ///< PyGILState_STATE is an enum.
  void (*GILStateRelease)(int);
  void *(*GILStateGetThisThreadState)();
  PyObj (*ThreadStateGetFrame)(void *); ///< New reference.
  PyObj (*FrameGetBack)(PyObj);         ///< New reference.
  PyObj (*FrameGetCode)(PyObj);         ///< New reference.
  int (*FrameGetLineNumber)(PyObj);
  PyObj (*ObjectGetAttrString)(PyObj, const char *);
  const char *(*UnicodeAsUTF8)(PyObj);
  void (*IncRef)(PyObj);
  void (*DecRef)(PyObj);
  void (*ErrFetch)(PyObj *, PyObj *, PyObj *);
  void (*ErrRestore)(PyObj, PyObj, PyObj);
};

struct ApiEntry {
  const char *Symbol;
  size_t Offset;
  bool Required;
};
#define PY_API(Field, Symbol)                                                  \
  { Symbol, offsetof(PythonApi, Field), true }
const ApiEntry ApiTable[] = {
    PY_API(IsInitialized, "Py_IsInitialized"),
    PY_API(GetVersion, "Py_GetVersion"),
    PY_API(GILStateEnsure, "PyGILState_Ensure"),
    PY_API(GILStateRelease, "PyGILState_Release"),
    PY_API(GILStateGetThisThreadState, "PyGILState_GetThisThreadState"),
    PY_API(ThreadStateGetFrame, "PyThreadState_GetFrame"),
    PY_API(FrameGetBack, "PyFrame_GetBack"),
    PY_API(FrameGetCode, "PyFrame_GetCode"),
    PY_API(FrameGetLineNumber, "PyFrame_GetLineNumber"),
    PY_API(ObjectGetAttrString, "PyObject_GetAttrString"),
    PY_API(UnicodeAsUTF8, "PyUnicode_AsUTF8"),
    PY_API(IncRef, "Py_IncRef"),
    PY_API(DecRef, "Py_DecRef"),
    PY_API(ErrFetch, "PyErr_Fetch"),
    PY_API(ErrRestore, "PyErr_Restore"),
    // Public from 3.13; the underscored spelling before.
    {"Py_IsFinalizing", offsetof(PythonApi, IsFinalizing), false},
    {"_Py_IsFinalizing", offsetof(PythonApi, IsFinalizing), false},
};
#undef PY_API

constexpr int kOldestMinor = 9, kNewestMinor = 13;

PythonApi Py;

/// Fills Py; PythonPresent when every required entry point exists and the
/// version is one whose frame API this file uses.
int resolvePython() {
  if (!dlsym(RTLD_DEFAULT, "Py_IsInitialized"))
    return PythonAbsent;
  // The version first: an older CPython lacks part of the table.
  auto Version =
      reinterpret_cast<const char *(*)()>(dlsym(RTLD_DEFAULT, "Py_GetVersion"));
  int Major = 0, Minor = 0;
  if (!Version || std::sscanf(Version(), "%d.%d", &Major, &Minor) != 2 ||
      Major != 3 || Minor < kOldestMinor || Minor > kNewestMinor) {
    const char *Text = Version ? Version() : "?";
    logLine("Python %.*s: call-sites stay native (distlint-rt reads the "
            "frames of CPython 3.%d to 3.%d)",
            int(std::strcspn(Text, " ")), Text, kOldestMinor, kNewestMinor);
    return PythonAbsent;
  }
  for (const ApiEntry &E : ApiTable) {
    void **Slot =
        reinterpret_cast<void **>(reinterpret_cast<char *>(&Py) + E.Offset);
    if (*Slot)
      continue;
    *Slot = dlsym(RTLD_DEFAULT, E.Symbol);
    if (!*Slot && E.Required) {
      logLine("Python: %s not found; call-sites stay native", E.Symbol);
      return PythonAbsent;
    }
  }
  return PythonPresent;
}

bool pythonReady() {
  int S = PythonState.load(std::memory_order_acquire);
  if (S == PythonUnknown) {
    static std::atomic<int> Resolving{0};
    if (Resolving.exchange(1))
      return false; // Another thread resolves; this record stays native.
    S = resolvePython();
    PythonState.store(S, std::memory_order_release);
  }
  return S == PythonPresent && Py.IsInitialized() &&
         !(Py.IsFinalizing && Py.IsFinalizing());
}

// ---- Code objects
// ---------------------------------------------------------------

/// What a code object's file says about its frames.
enum class CodeClass : uint8_t {
  User,     ///< The program's own code: a call-site.
  Autograd, ///< torch.autograd / Tensor.backward.
  Library,  ///< The rest of torch, the standard library, this tool's hook.
};

/// Where torch lives when the startup hook said so (an editable install
/// outside site-packages); read and written with the GIL held.
constexpr int kMaxLibraryDirs = 4;
std::string LibraryDirs[kMaxLibraryDirs];
int NumLibraryDirs = 0;

bool inTorch(const char *File, const char *Below) {
  for (int I = 0; I < NumLibraryDirs; ++I)
    if (std::strncmp(File, LibraryDirs[I].c_str(), LibraryDirs[I].size()) ==
            0 &&
        std::strncmp(File + LibraryDirs[I].size(), Below, std::strlen(Below)) ==
            0)
      return true;
  // An installed torch: .../site-packages/torch/ or .../dist-packages/torch/.
  const char *Packages = std::strstr(File, "-packages/torch/");
  return Packages && std::strncmp(Packages + std::strlen("-packages/torch/"),
                                  Below, std::strlen(Below)) == 0;
}

CodeClass classify(const char *File) {
  if (inTorch(File, "autograd/") || inTorch(File, "_tensor.py"))
    return CodeClass::Autograd;
  if (inTorch(File, "") || File[0] == '<' ||
      std::strstr(File, "/distlint-rt-python/"))
    return CodeClass::Library;
  // The standard library: lib/python3.N/ outside site- and dist-packages.
  const char *Lib = std::strstr(File, "/lib/python3");
  if (Lib && !std::strstr(Lib, "-packages/"))
    return CodeClass::Library;
  return CodeClass::User;
}

struct CodeEntry {
  PyObj Code = nullptr;
  CodeClass Class = CodeClass::Library;
  std::string File, Function;
  uint32_t Module[2] = {~0u, ~0u}; ///< Per kind: Call, Backward.
};

constexpr size_t kCodeCacheSize = 4096;
CodeEntry *CodeCache; // Open addressing by pointer; guarded by the GIL.
CodeEntry Uncached;

std::string attrText(PyObj Code, const char *Name) {
  std::string Text = "?";
  if (PyObj V = Py.ObjectGetAttrString(Code, Name)) {
    if (const char *U = Py.UnicodeAsUTF8(V))
      Text = U;
    Py.DecRef(V);
  }
  return Text;
}

CodeEntry &codeEntry(PyObj Code) {
  if (!CodeCache)
    CodeCache = new CodeEntry[kCodeCacheSize];
  size_t H = (uintptr_t(Code) >> 4) * 0x9e3779b97f4a7c15ull;
  for (size_t Probe = 0; Probe < 16; ++Probe) {
    CodeEntry &E = CodeCache[(H + Probe) % kCodeCacheSize];
    if (E.Code == Code)
      return E;
    if (E.Code)
      continue;
    E.Code = Code;
    Py.IncRef(Code); // Never freed, so the pointer is never reused.
    E.File = attrText(Code, "co_filename");
    E.Function = attrText(Code, "co_name");
    E.Class = classify(E.File.c_str());
    return E;
  }
  Uncached = CodeEntry();
  Uncached.File = attrText(Code, "co_filename");
  Uncached.Function = attrText(Code, "co_name");
  Uncached.Class = classify(Uncached.File.c_str());
  return Uncached;
}

std::string pseudoModuleName(PythonSiteKind Kind, const char *Function,
                             const char *File) {
  std::string Name = kPythonModulePrefix;
  Name += char(Kind);
  Name += ':';
  Name += Function;
  Name += ':';
  Name += File;
  return Name;
}

uint32_t moduleFor(CodeEntry &E, PythonSiteKind Kind) {
  uint32_t &Slot = E.Module[Kind == PythonSiteKind::Backward];
  if (Slot == ~0u || &E == &Uncached)
    Slot = internPseudoModule(
        pseudoModuleName(Kind, E.Function.c_str(), E.File.c_str()));
  return Slot;
}

/// The innermost user frame of ThreadState's stack (GIL held); 0 if none.
PackedFrame userFrame(void *ThreadState) {
  PyObj Frame = Py.ThreadStateGetFrame(ThreadState);
  PackedFrame Site = 0;
  bool First = true;
  PythonSiteKind Kind = PythonSiteKind::Call;
  for (int Depth = 0; Frame && Depth < 256; ++Depth) {
    PyObj Code = Py.FrameGetCode(Frame);
    CodeEntry &E = codeEntry(Code);
    Py.DecRef(Code);
    if (First && E.Class == CodeClass::Autograd)
      Kind = PythonSiteKind::Backward;
    First = false;
    if (E.Class == CodeClass::User) {
      Site =
          packFrame(moduleFor(E, Kind), uint64_t(Py.FrameGetLineNumber(Frame)));
      break;
    }
    PyObj Back = Py.FrameGetBack(Frame);
    Py.DecRef(Frame);
    Frame = Back;
  }
  if (Frame)
    Py.DecRef(Frame);
  return Site;
}

std::atomic<PackedFrame> BackwardSite{0};

void prepend(CallSite &Out, PackedFrame Python) {
  for (unsigned I = kRecordFrames - 1; I > 0; --I)
    Out.Frames[I] = Out.Frames[I - 1];
  Out.Frames[0] = Python;
}

} // namespace

void addPythonCallSite(CallSite &Out) {
  if (!pythonReady())
    return;
  void *ThreadState = Py.GILStateGetThisThreadState();
  PackedFrame Site = 0;
  if (ThreadState) {
    int Gil = Py.GILStateEnsure();
    PyObj Type = nullptr, Value = nullptr, Trace = nullptr;
    Py.ErrFetch(&Type, &Value, &Trace); // The program's pending error stays.
    Site = userFrame(ThreadState);
    Py.ErrRestore(Type, Value, Trace);
    Py.GILStateRelease(Gil);
  }
  if (!Site)
    Site = BackwardSite.load(std::memory_order_acquire);
  if (Site)
    prepend(Out, Site);
}

PackedFrame pythonFrame(PythonSiteKind Kind, const char *File,
                        const char *Function, int Line) {
  return packFrame(internPseudoModule(pseudoModuleName(Kind, Function, File)),
                   uint64_t(Line > 0 ? Line : 0));
}

void addPythonLibraryDir(const char *Dir) {
  if (!Dir || !*Dir || NumLibraryDirs == kMaxLibraryDirs)
    return;
  std::string D = Dir;
  if (D.back() != '/')
    D += '/';
  for (int I = 0; I < NumLibraryDirs; ++I)
    if (LibraryDirs[I] == D)
      return;
  LibraryDirs[NumLibraryDirs++] = D;
}

void setBackwardSite(PackedFrame Site) {
  BackwardSite.store(Site, std::memory_order_release);
}

void describeFrame(const TraceHeader &H, PackedFrame F, char *Buf,
                   size_t Size) {
  const char *Path = "?";
  if (frameValid(F) && frameModule(F) < H.ModuleCapacity) {
    const auto *Modules = reinterpret_cast<const ModuleEntry *>(
        reinterpret_cast<const char *>(&H) + H.ModulesOffset);
    const ModuleEntry &M = Modules[frameModule(F)];
    if (M.Ready.load(std::memory_order_acquire))
      Path = M.Path;
  }
  PythonSiteName Name;
  if (!parsePythonModule(Path, Name)) {
    std::snprintf(Buf, Size, "%s+0x%llx", Path,
                  (unsigned long long)frameOffset(F));
    return;
  }
  const char *File = Name.File;
  char Cwd[1024];
  if (getcwd(Cwd, sizeof(Cwd))) {
    size_t N = std::strlen(Cwd);
    if (std::strncmp(File, Cwd, N) == 0 && File[N] == '/')
      File += N + 1;
  }
  const char *How = Name.Kind == PythonSiteKind::Backward
                        ? " (issued by LibTorch for the backward() there)"
                    : Name.Kind == PythonSiteKind::OtherThread
                        ? " (issued by a LibTorch thread while backward() "
                          "there ran)"
                        : "";
  std::snprintf(Buf, Size, "%s:%llu in %.*s%s", File,
                (unsigned long long)frameOffset(F), int(Name.FunctionLength),
                Name.Function, How);
}

} // namespace rt
} // namespace distlint
