//===- Preamble.cpp - Shared precompiled preambles
//-------------------------===//
#include "Preamble.h"
#include "ResultCache.h"
#include "input/Paths.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <chrono>

using namespace clang;

namespace distlint {

std::vector<std::string> effectiveFlags(const CompileJob &Job) {
  tooling::CommandLineArguments Args = Job.Args;
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangStripOutputAdjuster(),
        tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripDependencyFileAdjuster()})
    Args = Adjust(Args, Job.File);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (I == 0)
      continue; // the compiler's name does not change the parse
    if (!Args[I].empty() && Args[I][0] != '-' &&
        normalizePath(Args[I], Job.Directory) == Job.File)
      continue;
    Out.push_back(Args[I]);
  }
  return Out;
}

PreambleShape computePreambleShape(llvm::StringRef MainText,
                                   const CompileJob &Job) {
  PreambleShape S;
  LangOptions LangOpts;
  LangOpts.CPlusPlus = LangOpts.CPlusPlus11 = LangOpts.CPlusPlus17 = true;
  LangOpts.LineComment = true;
  PreambleBounds Bounds = Lexer::ComputePreamble(MainText, LangOpts);
  S.Size = Bounds.Size;
  S.EndsAtStartOfLine = Bounds.PreambleEndsAtStartOfLine;

  // The tokens (not comments or layout) with line starts and leading spaces
  // marked: that is what the preprocessor sees.
  std::string Tokens;
  // The lexer needs a NUL-terminated buffer that ends with the preamble.
  const std::string Text = MainText.substr(0, S.Size).str();
  const char *Begin = Text.c_str();
  Lexer Raw(SourceLocation(), LangOpts, Begin, Begin, Begin + Text.size());
  unsigned Directives = 0, Depth = 0;
  bool InInclude = false, SeenInclude = false, AfterHash = false;
  KeyBuilder Common;
  Common.add("preamble-v1");
  Common.add(CLANG_VERSION_STRING);
  Common.add(Job.Directory);
  // A quoted include resolves from the main file's directory first; TUs of
  // other directories can share a preamble of angled includes only.
  static const llvm::Regex Quoted(
      "^[ \t]*#[ \t]*(include|include_next|import)[ \t]*\"",
      llvm::Regex::Newline);
  if (Quoted.match(Text))
    Common.add(llvm::sys::path::parent_path(Job.File));
  else
    Common.add("<angled includes only>");
  for (const std::string &Flag : effectiveFlags(Job))
    Common.add(Flag);
  const std::string Context = Common.hex();
  auto KeyOf = [&](const std::string &Tokens) {
    KeyBuilder K;
    K.add(Context);
    K.add(Tokens);
    return K.hex();
  };
  while (true) {
    Token Tok;
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    // Without a SourceManager, a raw token's location is its offset.
    unsigned Offset = Tok.getLocation().getRawEncoding();
    llvm::StringRef Spelling(Begin + Offset, Tok.getLength());
    bool Hash = Tok.isAtStartOfLine() && Spelling == "#";
    // A prefix ending before this directive can be shared by files that go
    // on differently, if no conditional is open there.
    if (Hash && SeenInclude && Depth == 0) {
      size_t LineStart = llvm::StringRef(Text).rfind('\n', Offset);
      LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
      S.Prefixes.push_back({KeyOf(Tokens), static_cast<unsigned>(LineStart),
                            true, static_cast<unsigned>(S.TokenOffsets.size())});
    }
    if (AfterHash) {
      if (Spelling == "if" || Spelling == "ifdef" || Spelling == "ifndef")
        ++Depth;
      else if (Spelling == "endif" && Depth > 0)
        --Depth;
    }
    AfterHash = Hash;
    if (Tok.isAtStartOfLine()) {
      Tokens += '\n';
      Directives += Hash;
    } else if (Tok.hasLeadingSpace()) {
      Tokens += ' ';
    }
    if (S.FirstInclude.empty() && InInclude) {
      llvm::StringRef Rest = llvm::StringRef(Text).substr(Offset);
      S.FirstInclude =
          Rest.take_until([](char C) { return C == '\n'; }).rtrim().str();
    }
    InInclude = Tok.isAtStartOfLine() ? false : InInclude;
    if (Spelling == "include" || Spelling == "import")
      InInclude = SeenInclude = true;
    Tokens += Spelling;
    S.TokenOffsets.push_back(Offset);
  }
  S.Shareable = Directives > 0 && S.Size > 0;
  if (!S.Shareable)
    return S;
  S.Prefixes.push_back({KeyOf(Tokens), S.Size, S.EndsAtStartOfLine,
                        static_cast<unsigned>(S.TokenOffsets.size())});
  S.choose(S.Prefixes.size() - 1);
  return S;
}

void PreambleShape::choose(size_t Index) {
  const Prefix &P = Prefixes[Index];
  Key = P.Key;
  Size = P.Size;
  EndsAtStartOfLine = P.EndsAtStartOfLine;
  TokenOffsets.resize(P.Tokens);
}

//===--- Building
//----------------------------------------------------------===//

namespace {
/// Records the files the preamble includes.
class DependencyRecorder : public PreambleCallbacks {
public:
  void AfterExecute(CompilerInstance &CI) override {
    SourceManager &SM = CI.getSourceManager();
    // The builder's own main file is not a dependency: every user brings its
    // own (the preamble holds only the directives they have in common).
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      if (Main && It->first == *Main)
        continue;
      llvm::SmallString<256> Path(It->first.getName());
      CI.getFileManager().makeAbsolutePath(Path);
      Files.push_back(normalizePath(Path));
    }
    std::sort(Files.begin(), Files.end());
    Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  }
  std::vector<std::string> Files;
};

/// The path a TU reads the PCH from: served from memory, never on disk.
std::string memoryPchPath(const std::string &Key) {
  return "/__distlint_preamble__/" + Key + ".pch";
}
} // namespace

PreambleStore::PreambleStore(std::string CacheDir, std::string RunId,
                             ContentHasher &Hasher)
    : Dir(CacheDir.empty() ? "" : CacheDir + "/preamble"),
      RunId(std::move(RunId)), Hasher(Hasher) {}
PreambleStore::~PreambleStore() = default;

std::shared_ptr<SharedPreamble> PreambleStore::slot(const std::string &Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto &S = Slots[Key];
  if (!S) {
    S = std::make_shared<SharedPreamble>();
    S->Key = Key;
  }
  return S;
}

std::string PreambleStore::pathFor(const std::string &Key,
                                   llvm::StringRef Ext) const {
  return Dir + "/" + Key + Ext.str();
}

bool PreambleStore::onDisk(const std::string &Key) {
  return !Dir.empty() && llvm::sys::fs::exists(pathFor(Key, ".meta"));
}

bool PreambleStore::load(SharedPreamble &P) {
  if (Dir.empty())
    return false;
  auto Meta = llvm::MemoryBuffer::getFile(pathFor(P.Key, ".meta"));
  if (!Meta)
    return false;
  llvm::Expected<llvm::json::Value> Doc =
      llvm::json::parse((*Meta)->getBuffer());
  if (!Doc) {
    llvm::consumeError(Doc.takeError());
    return false;
  }
  const llvm::json::Object *O = Doc->getAsObject();
  const llvm::json::Array *Deps = O ? O->getArray("dependencies") : nullptr;
  const llvm::json::Array *Offsets = O ? O->getArray("tokens") : nullptr;
  if (!Deps || !Offsets)
    return false;
  std::vector<std::string> Files;
  for (const llvm::json::Value &D : *Deps) {
    const llvm::json::Array *Pair = D.getAsArray();
    if (!Pair || Pair->size() != 2)
      return false;
    std::string Path = (*Pair)[0].getAsString().value_or("").str();
    // Any changed, added or removed header invalidates the preamble.
    if (Hasher.hashFile(Path) != (*Pair)[1].getAsString().value_or(""))
      return false;
    Files.push_back(Path);
  }
  auto Pch = llvm::MemoryBuffer::getFile(pathFor(P.Key, ".pch"),
                                         /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Pch)
    return false;
  for (const llvm::json::Value &V : *Offsets)
    P.BuilderTokenOffsets.push_back(
        static_cast<unsigned>(V.getAsInteger().value_or(0)));
  P.Pch = std::move(*Pch);
  P.Dependencies = std::move(Files);
  P.BuiltFrom = O->getString("builtFrom").value_or("").str();
  P.BuildSeconds = O->getNumber("seconds").value_or(0);
  P.FromEarlierRun = O->getString("run").value_or("") != RunId;
  touchFile(pathFor(P.Key, ".meta"));
  return true;
}

void PreambleStore::store(const SharedPreamble &P) {
  if (Dir.empty() || !P.Pch)
    return;
  llvm::json::Array Deps, Offsets;
  for (const std::string &D : P.Dependencies)
    Deps.push_back(llvm::json::Array{D, Hasher.hashFile(D)});
  for (unsigned O : P.BuilderTokenOffsets)
    Offsets.push_back(static_cast<int64_t>(O));
  llvm::json::Object Meta{{"builtFrom", P.BuiltFrom},
                          {"seconds", P.BuildSeconds},
                          {"run", RunId},
                          {"dependencies", std::move(Deps)},
                          {"tokens", std::move(Offsets)}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(std::move(Meta));
  // The PCH first: a .meta without its .pch is never trusted.
  if (writeFileAtomically(pathFor(P.Key, ".pch"), P.Pch->getBuffer()))
    writeFileAtomically(pathFor(P.Key, ".meta"), Text);
}

void PreambleStore::build(SharedPreamble &P, const PreambleShape &Shape,
                          const CompilerInvocation &Invocation,
                          FileManager &Files,
                          std::shared_ptr<PCHContainerOperations> Ops,
                          const std::string &MainFile) {
  auto Start = std::chrono::steady_clock::now();
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS(&Files.getVirtualFileSystem());
  auto Main = VFS->getBufferForFile(MainFile);
  if (!Main)
    return;
  IgnoringDiagConsumer Ignore;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(new DiagnosticOptions, &Ignore,
                                          /*ShouldOwnClient=*/false);
  DependencyRecorder Recorder;
  // Instantiate the templates the headers use once, in the preamble, instead
  // of again at the end of every TU that shares it (clang-cl's /Yc does the
  // same): LibTorch programs then parse about 3x faster on the preamble.
  CompilerInvocation Builder(Invocation);
  Builder.getLangOpts().PCHInstantiateTemplates = true;
  llvm::ErrorOr<PrecompiledPreamble> Built = PrecompiledPreamble::Build(
      Builder, Main->get(),
      PreambleBounds(Shape.Size, Shape.EndsAtStartOfLine), *Diags, VFS, Ops,
      /*StoreInMemory=*/true, "", Recorder);
  if (!Built || Diags->hasErrorOccurred())
    return; // e.g. a missing header: the TUs parse normally and report it
  // The in-memory PCH is reachable through the file system Clang sets up
  // for a user of the preamble; keep our own copy of its bytes.
  CompilerInvocation Probe(Invocation);
  IntrusiveRefCntPtr<llvm::vfs::FileSystem> ProbeFS = VFS;
  Built->OverridePreamble(Probe, ProbeFS, Main->get());
  auto Bytes =
      ProbeFS->getBufferForFile(Probe.getPreprocessorOpts().ImplicitPCHInclude);
  if (!Bytes)
    return;
  P.Pch = llvm::MemoryBuffer::getMemBufferCopy((*Bytes)->getBuffer(),
                                               memoryPchPath(P.Key));
  P.BuilderTokenOffsets = Shape.TokenOffsets;
  P.Dependencies = std::move(Recorder.Files);
  P.BuiltFrom = MainFile;
  P.BuildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  store(P);
}

bool PreambleStore::preload(const std::string &Key) {
  std::shared_ptr<SharedPreamble> P = slot(Key);
  std::lock_guard<std::mutex> Lock(P->Mutex);
  return P->Pch || load(*P);
}

SharedPreamble *
PreambleStore::ensure(const PreambleShape &Shape,
                      const CompilerInvocation &Invocation, FileManager &Files,
                      std::shared_ptr<PCHContainerOperations> Ops,
                      const std::string &MainFile, bool MayBuild) {
  std::shared_ptr<SharedPreamble> P = slot(Shape.Key);
  {
    std::lock_guard<std::mutex> Lock(P->Mutex);
    if (!P->Pch && !load(*P) && MayBuild)
      build(*P, Shape, Invocation, Files, std::move(Ops), MainFile);
  }
  if (!P->Pch || P->BuilderTokenOffsets.size() != Shape.TokenOffsets.size())
    return nullptr;
  std::lock_guard<std::mutex> Lock(P->UsersMutex);
  P->Users.push_back(MainFile);
  return P.get();
}

std::vector<std::shared_ptr<SharedPreamble>> PreambleStore::all() {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<std::shared_ptr<SharedPreamble>> Out;
  for (auto &[Key, P] : Slots)
    Out.push_back(P);
  return Out;
}

//===--- Using
//-------------------------------------------------------------===//

PreambleUse::PreambleUse(const SharedPreamble &P, const PreambleShape &Mine)
    : P(P), Mine(Mine) {}

std::string PreambleUse::pchPath() const { return memoryPchPath(P.Key); }

void PreambleUse::apply(CompilerInvocation &Invocation) const {
  // What PrecompiledPreamble::configurePreamble does, with this TU's own
  // bounds (its comments may differ from the builder's).
  PreprocessorOptions &PPOpts = Invocation.getPreprocessorOpts();
  PPOpts.ImplicitPCHInclude = pchPath();
  PPOpts.PrecompiledPreambleBytes = {Mine.Size, Mine.EndsAtStartOfLine};
  PPOpts.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  PPOpts.UsePredefines = false;
}

void PreambleUse::addTo(llvm::vfs::InMemoryFileSystem &Files) const {
  if (Files.exists(pchPath()))
    return;
  Files.addFile(pchPath(), 0,
                llvm::MemoryBuffer::getMemBuffer(P.Pch->getMemBufferRef(),
                                                 /*RequiresNullTerminator=*/
                                                 false));
}

unsigned PreambleUse::mapOffset(unsigned PreambleOffset) const {
  const std::vector<unsigned> &From = P.BuilderTokenOffsets;
  auto It = std::upper_bound(From.begin(), From.end(), PreambleOffset);
  if (It == From.begin())
    return std::min(PreambleOffset, Mine.Size);
  size_t Index = It - From.begin() - 1;
  return Mine.TokenOffsets[Index] + (PreambleOffset - From[Index]);
}

} // namespace distlint
