//===- FindingCollector.cpp -----------------------------------------------===//
#include "report/FindingCollector.h"
#include "report/Fingerprint.h"
#include "input/Paths.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace distlint {

FindingCollector::FindingCollector(CollectorOptions O) : Opts(std::move(O)) {}
FindingCollector::~FindingCollector() = default;

bool FindingCollector::isUserFile(llvm::StringRef Path) const {
  return isUserPath(Path, Opts.ProjectRoot);
}

FileSuppressions &
FindingCollector::suppressionsFor(FileID FID, const SourceManager &SM) {
  auto &Slot = NoLints[FID];
  if (!Slot) {
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
    Slot = std::make_unique<FileSuppressions>(Invalid ? llvm::StringRef()
                                                      : Buffer);
  }
  return *Slot;
}

SourceLocation FindingCollector::fromPreamble(SourceLocation Loc,
                                             const SourceManager &SM) const {
  if (!PreambleMap || Loc.isInvalid() || !Loc.isFileID())
    return Loc;
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  if (FID.isInvalid() || FID != SM.getPreambleFileID())
    return Loc;
  return SM.getComposedLoc(SM.getMainFileID(), PreambleMap(Offset));
}

bool FindingCollector::isSuppressed(SourceLocation Loc, llvm::StringRef Rule,
                                    const SourceManager &SM) {
  // Like clang-tidy: look at the spelling location, then walk up the macro
  // expansion chain, so a NOLINT at the macro use or in its definition works.
  while (Loc.isValid()) {
    auto [FID, Offset] =
        SM.getDecomposedLoc(fromPreamble(SM.getSpellingLoc(Loc), SM));
    if (SM.getFileEntryRefForID(FID) &&
        suppressionsFor(FID, SM).suppresses(Offset, Rule))
      return true;
    if (!Loc.isMacroID())
      return false;
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  }
  return false;
}

bool FindingCollector::toLocation(SourceLocation Loc, const SourceManager &SM,
                                  Location &Out) const {
  if (Loc.isInvalid())
    return false;
  SourceLocation Exp = fromPreamble(SM.getExpansionLoc(Loc), SM);
  FileID FID = SM.getFileID(Exp);
  OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
  if (!File)
    return false; // <built-in>, <scratch space>, command line
  llvm::SmallString<256> Path(File->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  Out.File = normalizePath(Path);
  Out.Line = SM.getExpansionLineNumber(Exp);
  Out.Column = SM.getExpansionColumnNumber(Exp);
  return true;
}

namespace {
/// Innermost function definition in DC whose source range holds Loc.
const FunctionDecl *findEnclosing(const DeclContext *DC, SourceLocation Loc,
                                  const SourceManager &SM) {
  for (const Decl *D : DC->decls()) {
    SourceRange R = D->getSourceRange();
    if (R.isInvalid())
      continue;
    SourceLocation Begin = SM.getExpansionLoc(R.getBegin());
    SourceLocation End = SM.getExpansionRange(R.getEnd()).getEnd();
    if (SM.getFileID(Begin) != SM.getFileID(Loc) ||
        !SM.isPointWithin(Loc, Begin, End))
      continue;
    if (const auto *T = dyn_cast<TemplateDecl>(D))
      D = T->getTemplatedDecl();
    if (!D)
      continue;
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      return FD;
    if (const auto *Inner = dyn_cast<DeclContext>(D))
      if (const FunctionDecl *FD = findEnclosing(Inner, Loc, SM))
        return FD;
  }
  return nullptr;
}
} // namespace

std::string
FindingCollector::enclosingFunctionName(SourceLocation ExpansionLoc) const {
  if (!AST)
    return "";
  const FunctionDecl *FD = findEnclosing(AST->getTranslationUnitDecl(),
                                         ExpansionLoc, AST->getSourceManager());
  if (!FD)
    return "";
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->printQualifiedName(OS);
  return Name;
}

void FindingCollector::addFinding(Finding F, SourceLocation ExpansionLoc,
                                  const SourceManager &SM) {
  bool Invalid = false;
  auto [FID, Offset] = SM.getDecomposedLoc(ExpansionLoc);
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  llvm::StringRef Line;
  if (!Invalid && Offset <= Buffer.size()) {
    size_t Start = Buffer.find_last_of('\n', Offset);
    Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
    Line = Buffer.slice(Start, Buffer.find('\n', Offset));
  }
  F.Fingerprint =
      fingerprintKey(F.Rule, relativeToRoot(F.Loc.File, Opts.ProjectRoot),
                     Line, enclosingFunctionName(ExpansionLoc));
  Findings.push_back(std::move(F));
}

bool FindingCollector::passesHeaderFilter(SourceLocation Exp,
                                          llvm::StringRef Path,
                                          const SourceManager &SM) const {
  if (SM.isWrittenInMainFile(Exp))
    return true;
  if (Opts.HeaderFilter ? !Opts.HeaderFilter->match(Path) : !isUserFile(Path))
    return false;
  return !(Opts.ExcludeHeaderFilter && Opts.ExcludeHeaderFilter->match(Path));
}

bool FindingCollector::toReplacements(const std::vector<FixItHint> &Hints,
                                      const SourceManager &SM,
                                      std::vector<Replacement> &Out) const {
  for (const FixItHint &H : Hints) {
    CharSourceRange R = H.RemoveRange;
    // Builders only edit file text; an edit inside a macro is not safe.
    if (R.isInvalid() || R.getBegin().isMacroID() || R.getEnd().isMacroID())
      return false;
    if (R.isTokenRange())
      R = CharSourceRange::getCharRange(
          R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM,
                                                   LangOptions()));
    auto [FID, Begin] = SM.getDecomposedLoc(fromPreamble(R.getBegin(), SM));
    auto [EndFID, End] = SM.getDecomposedLoc(fromPreamble(R.getEnd(), SM));
    Location L;
    if (FID != EndFID || End < Begin || !toLocation(R.getBegin(), SM, L) ||
        SM.isInSystemHeader(R.getBegin()) || !isUserFile(L.File))
      return false;
    Out.push_back({L.File, Begin, End - Begin, H.CodeToInsert});
  }
  return true;
}

/// The "expanded from macro" notes Clang's diagnostic renderer adds after a
/// diagnostic or note inside a macro (DiagnosticRenderer::emitMacroExpansions
/// for a diagnostic without source ranges, at the default backtrace limit),
/// so the binary's notes are the ones clang-tidy prints for the same finding:
/// one per macro body the location passes through, outermost first; a
/// location that is only a macro argument spelled at the use adds none.
static std::vector<RawNote> macroBacktrace(SourceLocation Loc,
                                           const SourceManager &SM,
                                           const LangOptions &LO) {
  constexpr unsigned Limit = 6; // DiagnosticOptions::DefaultMacroBacktraceLimit
  llvm::SmallVector<SourceLocation, 8> Stack;
  unsigned Ignored = 0;
  while (Loc.isMacroID()) {
    bool Arg = SM.isMacroArgExpansion(Loc);
    Stack.push_back(Arg ? SM.getImmediateExpansionRange(Loc).getBegin() : Loc);
    // Without ranges, Clang drops the levels up to a macro argument.
    if (Arg)
      Ignored = Stack.size();
    Loc = SM.getImmediateMacroCallerLoc(Loc);
    if (Loc.isFileID())
      Loc = SM.getImmediateMacroCallerLoc(Stack.back());
  }
  Stack.erase(Stack.begin(), Stack.begin() + Ignored);
  // Over the limit Clang shows the outer and inner halves and a note
  // without a location in between (which neither front end reports).
  size_t Outer = Stack.size(), Inner = 0;
  if (Stack.size() > Limit) {
    Outer = Limit / 2;
    Inner = Limit / 2 + Limit % 2;
  }
  std::vector<RawNote> Out;
  auto Emit = [&](SourceLocation L) {
    llvm::StringRef Name =
        Lexer::getImmediateMacroNameForDiagnostics(L, SM, LO);
    Out.push_back({SM.getSpellingLoc(L),
                   Name.empty() ? std::string("expanded from here")
                                : "expanded from macro '" + Name.str() + "'"});
  };
  for (size_t I = 0; I < Outer; ++I)
    Emit(Stack[Stack.size() - 1 - I]);
  for (size_t I = Inner; I > 0; --I)
    Emit(Stack[I - 1]);
  return Out;
}

void FindingCollector::report(RawFinding Raw, const SourceManager &SM) {
  if (Raw.Loc.isInvalid())
    return;
  SourceLocation Exp = fromPreamble(SM.getExpansionLoc(Raw.Loc), SM);
  if (SM.isInSystemHeader(Exp))
    return;
  Finding F;
  if (!toLocation(Raw.Loc, SM, F.Loc))
    return;
  if (!passesHeaderFilter(Exp, F.Loc.File, SM)) {
    // Counted only where the default would have reported it.
    HeaderFiltered += isUserFile(F.Loc.File);
    return;
  }
  if (isSuppressed(Raw.Loc, Raw.Rule, SM)) {
    ++Suppressed;
    return;
  }
  F.Rule = std::move(Raw.Rule);
  F.Sev = Opts.SeverityOf ? Opts.SeverityOf(F.Rule, Raw.Sev) : Raw.Sev;
  F.Message = std::move(Raw.Message);
  LangOptions DefaultLO;
  const LangOptions &LO = AST ? AST->getLangOpts() : DefaultLO;
  auto AddNote = [&](SourceLocation Loc, std::string Message) {
    Note Out;
    if (!toLocation(Loc, SM, Out.Loc))
      return;
    Out.Message = std::move(Message);
    F.Notes.push_back(std::move(Out));
  };
  for (RawNote &N : macroBacktrace(Raw.Loc, SM, LO))
    AddNote(N.Loc, std::move(N.Message));
  for (RawNote &N : Raw.Notes) {
    if (N.Loc.isInvalid() && !N.OtherFile.empty()) {
      F.Notes.push_back(
          Note{Location{normalizePath(N.OtherFile), N.OtherLine, 1},
               std::move(N.Message)});
      continue;
    }
    SourceLocation Loc = N.Loc;
    AddNote(Loc, std::move(N.Message));
    for (RawNote &M : macroBacktrace(Loc, SM, LO))
      AddNote(M.Loc, std::move(M.Message));
  }
  if (!toReplacements(Raw.Fixes, SM, F.Fixes))
    F.Fixes.clear();
  addFinding(std::move(F), Exp, SM);
}

void FindingCollector::finishTranslationUnit(const SourceManager &SM) {
  suppressionsFor(SM.getMainFileID(), SM);
  // Iterate in a fixed order: DenseMap order depends on FileID values only,
  // but sorting afterwards keeps the output independent of it anyway.
  for (auto &[FID, Supp] : NoLints) {
    // The preamble's text is the main file's: reported there.
    if (Supp->unmatched().empty() || !SM.getFileEntryRefForID(FID) ||
        (PreambleMap && FID == SM.getPreambleFileID()))
      continue;
    for (const NoLintToken &T : Supp->unmatched()) {
      SourceLocation Loc = SM.getComposedLoc(FID, T.Offset);
      if (SM.isInSystemHeader(Loc))
        continue;
      Finding F;
      if (!toLocation(Loc, SM, F.Loc) || !isUserFile(F.Loc.File))
        continue;
      F.Rule = NoLintErrorRule;
      F.Sev = Severity::Error;
      F.Message = FileSuppressions::unmatchedMessage(T);
      addFinding(std::move(F), Loc, SM);
    }
  }
  NoLints.clear();
}

} // namespace distlint
