//===- Sites.cpp - Source locations of recorded call-sites
//-----------------===//
#include "Sites.h"

#include <unistd.h>

#include <cstdio>
#include <sstream>

namespace distlint {
namespace rt {

static std::string currentDir() {
  char Buf[4096];
  return getcwd(Buf, sizeof(Buf)) ? Buf : "/";
}

std::string normalizePath(const std::string &Path) {
  if (Path.empty())
    return Path;
  std::string Full = Path[0] == '/' ? Path : currentDir() + "/" + Path;
  std::vector<std::string> Parts;
  std::stringstream In(Full);
  std::string Part;
  while (std::getline(In, Part, '/')) {
    if (Part.empty() || Part == ".")
      continue;
    if (Part == "..") {
      if (!Parts.empty())
        Parts.pop_back();
      continue;
    }
    Parts.push_back(Part);
  }
  std::string Out;
  for (const std::string &P : Parts)
    Out += "/" + P;
  return Out.empty() ? "/" : Out;
}

std::string displayPath(const std::string &Path) {
  std::string Cwd = currentDir() + "/";
  std::string Norm = normalizePath(Path);
  if (Norm.compare(0, Cwd.size(), Cwd) == 0)
    return Norm.substr(Cwd.size());
  return Norm;
}

Sites::Sites(const Analysis &An, Symbolizer &Sym) : A(An), S(Sym) {
  for (size_t T = 0; T < A.Traces.size(); ++T) {
    const RankTrace &Tr = A.Traces[T];
    auto Add = [&](PackedFrame F) {
      if (!frameValid(F) || frameModule(F) >= Tr.Modules.size())
        return;
      const std::string &Module = Tr.Modules[frameModule(F)];
      PythonSiteName Py;
      if (!parsePythonModule(Module.c_str(), Py)) {
        Sym.add(Module, frameOffset(F));
        return;
      }
      // A Python line: the trace says it all, no symbolizer needed.
      SourceLoc L;
      L.File = Py.File;
      L.Line = unsigned(frameOffset(F));
      L.Function.assign(Py.Function, Py.FunctionLength);
      Sym.addResolved(Module, frameOffset(F), {L});
    };
    for (const Record &R : Tr.Records)
      for (PackedFrame F : R.Frames)
        Add(F);
    for (const SyncCount &C : Tr.Syncs)
      Add(C.Site);
  }
  Sym.run();
}

const std::string &Sites::modulePath(int Trace, PackedFrame F) const {
  static const std::string None;
  const RankTrace &Tr = A.Traces[size_t(Trace)];
  if (!frameValid(F) || frameModule(F) >= Tr.Modules.size())
    return None;
  return Tr.Modules[frameModule(F)];
}

std::vector<SourceLoc> Sites::frame(int Trace, PackedFrame F) const {
  const std::string &Module = modulePath(Trace, F);
  if (Module.empty())
    return {};
  return S.lookup(Module, frameOffset(F));
}

std::vector<SourceLoc> Sites::locations(int Trace, const Record &R) const {
  std::vector<SourceLoc> All;
  for (PackedFrame F : R.Frames)
    for (const SourceLoc &L : frame(Trace, F))
      All.push_back(L);
  return All;
}

SourceLoc Sites::primary(int Trace, const Record &R) const {
  for (PackedFrame F : R.Frames) {
    std::vector<SourceLoc> Chain = frame(Trace, F);
    if (!Chain.empty())
      return Chain.front();
  }
  return SourceLoc();
}

bool Sites::python(int Trace, PackedFrame F, PythonSiteKind *Kind) const {
  PythonSiteName Py;
  if (!parsePythonModule(modulePath(Trace, F).c_str(), Py))
    return false;
  if (Kind)
    *Kind = Py.Kind;
  return true;
}

std::string Sites::where(int Trace, PackedFrame F) const {
  std::vector<SourceLoc> Chain = frame(Trace, F);
  PythonSiteKind Kind;
  if (!Chain.empty() && python(Trace, F, &Kind)) {
    std::string S = displayPath(Chain.front().File) + ":" +
                    std::to_string(Chain.front().Line) + " in " +
                    Chain.front().Function;
    if (Kind == PythonSiteKind::Backward)
      return S + " (issued by LibTorch for the backward() there: DDP's "
                 "gradient all-reduce)";
    if (Kind == PythonSiteKind::OtherThread)
      return S + " (issued by a LibTorch thread while the backward() there "
                 "ran: DDP's gradient all-reduce)";
    return S;
  }
  if (!Chain.empty())
    return displayPath(Chain.front().File) + ":" +
           std::to_string(Chain.front().Line);
  const std::string &Module = modulePath(Trace, F);
  if (Module.empty())
    return "an unknown call-site";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "+0x%llx",
                (unsigned long long)frameOffset(F));
  return displayPath(Module) + Buf;
}

std::string Sites::whereWithCaller(int Trace, const Record &R) const {
  std::string Here = where(Trace, R);
  if (python(Trace, R.Frames[0]))
    return Here; // The native frames below are the interpreter's.
  // The frame after the one where() used.
  bool Seen = false;
  for (PackedFrame F : R.Frames) {
    std::vector<SourceLoc> Chain = frame(Trace, F);
    if (Chain.empty())
      continue;
    if (!Seen) {
      Seen = true;
      if (Chain.size() > 1) // Inlined: the caller is the next link.
        return Here + " (called from " + displayPath(Chain[1].File) + ":" +
               std::to_string(Chain[1].Line) + ")";
      continue;
    }
    return Here + " (called from " + displayPath(Chain.front().File) + ":" +
           std::to_string(Chain.front().Line) + ")";
  }
  return Here;
}

std::string Sites::where(int Trace, const Record &R) const {
  for (PackedFrame F : R.Frames)
    if (!frame(Trace, F).empty())
      return where(Trace, F);
  return where(Trace, R.Frames[0]);
}

} // namespace rt
} // namespace distlint
