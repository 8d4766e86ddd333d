//===- ProjectIndex.cpp - Function summaries across the project's TUs -----===//
#include "ProjectIndex.h"
#include "speed/ResultCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace distlint {

namespace {

/// The index file's JSON (named apart: unity builds share a namespace with
/// the language server's llvm::json).
using IndexJson = nlohmann::json;

constexpr int IndexVersion = 1;

/// Roles a fact may have, by name (the index is data: a role it does not
/// know makes the entry unreadable, not misread).
std::optional<api::Role> roleNamed(const std::string &Name) {
  for (unsigned I = 0; I < api::NumRoles; ++I)
    if (Name == api::roleName(static_cast<api::Role>(I)))
      return static_cast<api::Role>(I);
  return std::nullopt;
}

/// What a call through a virtual method gets from each overrider: it may
/// run any of them, so it issues what any of them issues. Values it
/// returns are not a fact of every overrider.
bool flowsToOverridden(api::Role R) {
  switch (R) {
  case api::Role::Collective:
  case api::Role::DeviceSync:
  case api::Role::StreamSync:
  case api::Role::EventSync:
  case api::Role::TrainingStep:
    return true;
  default:
    return false;
  }
}

IndexJson factJson(const api::ProjectFact &F) {
  return {{"role", api::roleName(F.TheRole)},
          {"out", F.Out},
          {"comm", F.Comm},
          {"recv", F.Recv},
          {"what", F.What},
          {"file", F.File},
          {"line", F.Line}};
}

bool factFrom(const IndexJson &J, api::ProjectFact &F) {
  if (!J.is_object())
    return false;
  auto R = roleNamed(J.value("role", ""));
  if (!R)
    return false;
  F.TheRole = *R;
  F.Out = J.value("out", -1);
  F.Comm = J.value("comm", -1);
  F.Recv = J.value("recv", -1);
  F.What = J.value("what", "");
  F.File = J.value("file", "");
  F.Line = J.value("line", 0u);
  return true;
}

} // namespace

std::string ProjectIndex::encode(const TuExports &X,
                                 const std::string &GivenDigest) {
  IndexJson Defines = IndexJson::array();
  for (const api::ProjectFunction &F : X.Defines) {
    IndexJson Facts = IndexJson::array();
    for (const api::ProjectFact &Fact : F.Facts)
      Facts.push_back(factJson(Fact));
    Defines.push_back({{"usr", F.Usr},
                       {"name", F.Name},
                       {"overrides", F.Overrides},
                       {"facts", Facts}});
  }
  return IndexJson{{"defines", Defines},
                   {"references", X.References},
                   {"given", GivenDigest}}
      .dump();
}

std::string ProjectIndex::given(const std::string &Summaries) {
  IndexJson J = IndexJson::parse(Summaries, nullptr, false);
  return J.is_object() ? J.value("given", "") : "";
}

std::string ProjectIndex::digest(const api::ProjectFacts *Given,
                                 const std::vector<std::string> &Refs) {
  if (!Given)
    return "";
  KeyBuilder K;
  bool Any = false;
  for (const std::string &Usr : Refs) {
    auto It = Given->ByUsr.find(Usr);
    if (It == Given->ByUsr.end())
      continue;
    Any = true;
    K.add(Usr);
    K.add(It->second.Name);
    for (const api::ProjectFact &F : It->second.Facts)
      K.add(factJson(F).dump());
  }
  return Any ? K.hex() : "";
}

std::shared_ptr<const api::ProjectFacts> ProjectIndex::all() const {
  if (AllCache || Tus.empty())
    return AllCache;
  auto Facts = std::make_shared<api::ProjectFacts>();
  Facts->ByUsr = byUsr();
  if (!Facts->empty())
    AllCache = Facts;
  return AllCache;
}

bool ProjectIndex::definesForOthers(const std::string &File) const {
  auto It = Tus.find(File);
  if (It == Tus.end())
    return false;
  for (const auto &[Other, E] : Tus) {
    if (Other == File)
      continue;
    for (const api::ProjectFunction &F : It->second.Defines)
      if (llvm::is_contained(E.References, F.Usr) ||
          llvm::any_of(F.Overrides, [&](const std::string &B) {
            return llvm::is_contained(E.References, B);
          }))
        return true;
  }
  return false;
}

bool ProjectIndex::decode(const std::string &Text, TuEntry &Out) {
  IndexJson J = IndexJson::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (!J.is_object() || !J.contains("defines") || !J["defines"].is_array() ||
      !J.contains("references") || !J["references"].is_array())
    return false;
  TuEntry E;
  for (const IndexJson &D : J["defines"]) {
    if (!D.is_object() || !D.contains("facts") || !D["facts"].is_array())
      return false;
    api::ProjectFunction F;
    F.Usr = D.value("usr", "");
    F.Name = D.value("name", "");
    if (D.contains("overrides") && D["overrides"].is_array())
      for (const IndexJson &O : D["overrides"])
        if (O.is_string())
          F.Overrides.push_back(O.get<std::string>());
    for (const IndexJson &Fact : D["facts"]) {
      api::ProjectFact PF;
      if (!factFrom(Fact, PF))
        return false;
      F.Facts.push_back(std::move(PF));
    }
    if (F.Usr.empty())
      return false;
    E.Defines.push_back(std::move(F));
  }
  for (const IndexJson &R : J["references"])
    if (R.is_string())
      E.References.push_back(R.get<std::string>());
  Out = std::move(E);
  return true;
}

std::string ProjectIndex::pathFor(const std::string &CacheDir,
                                  const std::string &ProjectRoot) {
  KeyBuilder K;
  K.add("project-index");
  K.add(ProjectRoot);
  llvm::SmallString<256> P(CacheDir);
  llvm::sys::path::append(P, "index", K.hex() + ".IndexJson");
  return P.str().str();
}

bool ProjectIndex::load(const std::string &Path, std::string &Why) {
  Tus.clear();
  ByUsrCache.reset();
  AllCache.reset();
  WrittenAt.reset();
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    Why = "no project index yet (" + Path + ")";
    return false;
  }
  IndexJson J = IndexJson::parse((*Buffer)->getBuffer().str(), nullptr, false);
  if (!J.is_object() || J.value("version", 0) != IndexVersion ||
      !J.contains("tus") || !J["tus"].is_object()) {
    Why = "project index " + Path + " is unreadable or of another version";
    return false;
  }
  for (auto &[File, Entry] : J["tus"].items()) {
    TuEntry E;
    if (decode(Entry.dump(), E))
      Tus[File] = std::move(E);
  }
  WrittenAt = J.value("written", int64_t(0));
  return true;
}

bool ProjectIndex::save(const std::string &Path) {
  IndexJson TusJson = IndexJson::object();
  for (const auto &[File, E] : Tus) {
    TuExports X{E.Defines, E.References};
    TusJson[File] = IndexJson::parse(encode(X));
  }
  int64_t Now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  IndexJson J{{"version", IndexVersion}, {"written", Now}, {"tus", TusJson}};
  if (!writeFileAtomically(Path, J.dump()))
    return false;
  Dirty = false;
  return true;
}

void ProjectIndex::update(const std::string &File,
                          const std::string &Summaries) {
  TuEntry E;
  if (Summaries.empty() || !decode(Summaries, E))
    return;
  auto Old = Tus.find(File);
  if (Old != Tus.end() && Old->second.Defines == E.Defines &&
      Old->second.References == E.References)
    return;
  Dirty = true;
  Tus[File] = std::move(E);
  ByUsrCache.reset();
  AllCache.reset();
}

bool ProjectIndex::hasOwnHeader(const std::string &File) {
  llvm::SmallString<256> Stem(File);
  llvm::sys::path::replace_extension(Stem, "");
  for (const char *Ext : {".h", ".hpp", ".hh", ".cuh"})
    if (llvm::sys::fs::exists(Stem + Ext))
      return true;
  return false;
}

std::string ProjectIndex::describe(const std::string &Path) const {
  int64_t Now = std::chrono::duration_cast<std::chrono::seconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  int64_t Age = std::max<int64_t>(0, Now - WrittenAt.value_or(Now));
  std::string AgeText = Age < 120    ? std::to_string(Age) + " s"
                        : Age < 7200 ? std::to_string(Age / 60) + " min"
                                     : std::to_string(Age / 3600) + " h";
  return "project index " + Path + ": " + std::to_string(functions()) +
         " function summaries of " + std::to_string(files()) +
         " file(s), written " + AgeText + " ago";
}

size_t ProjectIndex::functions() const {
  size_t N = 0;
  for (const auto &[File, E] : Tus)
    N += E.Defines.size();
  return N;
}

const std::map<std::string, api::ProjectFacts::Entry> &
ProjectIndex::byUsr() const {
  if (ByUsrCache)
    return *ByUsrCache;
  ByUsrCache.emplace();
  auto Add = [&](const std::string &Usr, const std::string &Name,
                 const api::ProjectFact &F) {
    api::ProjectFacts::Entry &Entry = (*ByUsrCache)[Usr];
    if (Entry.Name.empty())
      Entry.Name = Name;
    if (!llvm::is_contained(Entry.Facts, F))
      Entry.Facts.push_back(F);
  };
  for (const auto &[File, E] : Tus)
    for (const api::ProjectFunction &F : E.Defines)
      for (const api::ProjectFact &Fact : F.Facts) {
        Add(F.Usr, F.Name, Fact);
        if (flowsToOverridden(Fact.TheRole))
          for (const std::string &Base : F.Overrides)
            Add(Base, F.Name, Fact);
      }
  return *ByUsrCache;
}

std::shared_ptr<const api::ProjectFacts>
ProjectIndex::factsFor(const std::string &File, std::string &Digest) const {
  Digest.clear();
  auto It = Tus.find(File);
  if (It == Tus.end())
    return nullptr;
  auto Facts = std::make_shared<api::ProjectFacts>();
  const auto &All = byUsr();
  for (const std::string &Usr : It->second.References)
    if (auto Found = All.find(Usr); Found != All.end())
      Facts->ByUsr[Usr] = Found->second;
  if (Facts->empty())
    return nullptr;
  Digest = digest(Facts.get(), It->second.References);
  return Facts;
}

} // namespace distlint
