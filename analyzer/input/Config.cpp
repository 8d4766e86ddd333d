//===- Config.cpp ---------------------------------------------------------===//
#include "input/Config.h"
#include "Rule.h"
#include "input/Glob.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace distlint {

bool parseByteSize(llvm::StringRef Text, uint64_t &Out) {
  unsigned Shift = 0;
  if (Text.consume_back("K") || Text.consume_back("k"))
    Shift = 10;
  else if (Text.consume_back("M"))
    Shift = 20;
  else if (Text.consume_back("G"))
    Shift = 30;
  uint64_t N;
  if (Text.empty() || Text.getAsInteger(10, N) || N > (UINT64_MAX >> Shift))
    return false;
  Out = N << Shift;
  return true;
}

void DistlintConfig::append(const DistlintConfig &Child) {
  RuleGlobs.insert(RuleGlobs.end(), Child.RuleGlobs.begin(),
                   Child.RuleGlobs.end());
  for (const auto &[Rule, Sev] : Child.Severities)
    Severities[Rule] = Sev;
  auto Concat = [](std::vector<std::string> &To,
                   const std::vector<std::string> &From) {
    To.insert(To.end(), From.begin(), From.end());
  };
  Concat(User.RankSources, Child.User.RankSources);
  Concat(User.CollectiveWrappers, Child.User.CollectiveWrappers);
  Concat(User.WorldSizeSources, Child.User.WorldSizeSources);
  if (Child.ReportErrorPathDivergence)
    ReportErrorPathDivergence = Child.ReportErrorPathDivergence;
  Concat(WarningsAsErrors, Child.WarningsAsErrors);
  if (Child.HeaderFilterRegex)
    HeaderFilterRegex = Child.HeaderFilterRegex;
  if (Child.ExcludeHeaderFilterRegex)
    ExcludeHeaderFilterRegex = Child.ExcludeHeaderFilterRegex;
  if (Child.TuMemoryLimit)
    TuMemoryLimit = Child.TuMemoryLimit;
  if (Child.HasFixOptions) {
    Fixes = Child.Fixes;
    HasFixOptions = true;
  }
  Concat(Files, Child.Files);
}

bool DistlintConfig::ruleEnabled(llvm::StringRef Rule,
                                 llvm::StringRef ExtraGlobs) const {
  std::string All = "distlint-*";
  for (const std::string &G : RuleGlobs)
    All += "," + G;
  if (!ExtraGlobs.empty())
    All += "," + ExtraGlobs.str();
  return GlobList(All).contains(Rule);
}

Severity
DistlintConfig::severityOf(llvm::StringRef Rule, Severity Default,
                           llvm::StringRef ExtraWarningsAsErrors) const {
  auto It = Severities.find(Rule.str());
  Severity S = It == Severities.end() ? Default : It->second;
  std::string Globs = "-*";
  for (const std::string &G : WarningsAsErrors)
    Globs += "," + G;
  if (!ExtraWarningsAsErrors.empty())
    Globs += "," + ExtraWarningsAsErrors.str();
  if (S == Severity::Warning && GlobList(Globs).contains(Rule))
    S = Severity::Error;
  return S;
}

namespace {
/// Collects the first YAML error as one line.
struct YamlErrors {
  std::string FileName;
  std::string First;
  static void handler(const llvm::SMDiagnostic &D, void *Ctx) {
    auto *Self = static_cast<YamlErrors *>(Ctx);
    if (Self->First.empty())
      Self->First = Self->FileName + ":" + std::to_string(D.getLineNo()) +
                    ": " + D.getMessage().str();
  }
};

bool scalarText(llvm::yaml::Node *N, std::string &Out) {
  auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N);
  if (!S)
    return false;
  llvm::SmallString<64> Storage;
  Out = S->getValue(Storage).str();
  return true;
}

/// A scalar or a sequence of scalars.
bool stringList(llvm::yaml::Node *N, std::vector<std::string> &Out) {
  std::string One;
  if (scalarText(N, One)) {
    Out.push_back(One);
    return true;
  }
  auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N);
  if (!Seq)
    return false;
  for (llvm::yaml::Node &Item : *Seq) {
    if (!scalarText(&Item, One))
      return false;
    Out.push_back(One);
  }
  return true;
}

bool isKnownRule(llvm::StringRef Id) {
  for (const RuleInfo &R : allRules())
    if (Id == R.Id)
      return true;
  return false;
}
} // namespace

bool parseConfig(llvm::StringRef Text, llvm::StringRef FileName,
                 DistlintConfig &Out, bool &InheritParent,
                 std::string &Error) {
  llvm::SourceMgr SM;
  YamlErrors Errs{FileName.str(), ""};
  SM.setDiagHandler(&YamlErrors::handler, &Errs);
  llvm::yaml::Stream Stream(Text, SM);
  InheritParent = false;
  auto Fail = [&](llvm::yaml::Node *N, const std::string &Msg) {
    unsigned Line = 0;
    // Nodes the parser made up after an error (an empty value) may point
    // outside the text: only a location inside it has a line.
    llvm::SMLoc At = N ? N->getSourceRange().Start : llvm::SMLoc();
    if (At.isValid() && SM.FindBufferContainingLoc(At))
      Line = SM.getLineAndColumn(At).first;
    Error = FileName.str() + (Line ? ":" + std::to_string(Line) : "") + ": " +
            Msg;
    return false;
  };

  llvm::yaml::document_iterator Doc = Stream.begin();
  if (Doc == Stream.end() || !Doc->getRoot() ||
      llvm::isa<llvm::yaml::NullNode>(Doc->getRoot())) {
    if (!Errs.First.empty())
      return Error = Errs.First, false;
    Out.Files.push_back(FileName.str()); // an empty file is a valid config
    return true;
  }
  auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Doc->getRoot());
  if (!Map)
    return Errs.First.empty() ? Fail(Doc->getRoot(), "expected a mapping")
                              : (Error = Errs.First, false);
  for (llvm::yaml::KeyValueNode &KV : *Map) {
    std::string Key;
    if (!scalarText(KV.getKey(), Key))
      return Errs.First.empty() ? Fail(KV.getKey(), "expected a key")
                                : (Error = Errs.First, false);
    llvm::yaml::Node *Value = KV.getValue();
    if (Key == "Rules" || Key == "Checks") {
      std::vector<std::string> Globs;
      if (!stringList(Value, Globs))
        return Fail(Value, "'" + Key + "' must be a string or a list of strings");
      for (std::string &G : Globs)
        Out.RuleGlobs.push_back(std::move(G));
    } else if (Key == "WarningsAsErrors") {
      if (!stringList(Value, Out.WarningsAsErrors))
        return Fail(Value, "'WarningsAsErrors' must be a glob list");
    } else if (Key == "HeaderFilterRegex" ||
               Key == "ExcludeHeaderFilterRegex") {
      std::string Re, Why;
      if (!scalarText(Value, Re) || !llvm::Regex(Re).isValid(Why))
        return Fail(Value, "'" + Key + "' must be a regular expression" +
                               (Why.empty() ? "" : ": " + Why));
      (Key == "HeaderFilterRegex" ? Out.HeaderFilterRegex
                                  : Out.ExcludeHeaderFilterRegex) = Re;
    } else if (Key == "MissingTimeoutDefault") {
      if (!scalarText(Value, Out.Fixes.MissingTimeoutDefault) ||
          Out.Fixes.MissingTimeoutDefault.empty())
        return Fail(Value, "'MissingTimeoutDefault' must be a C++ duration "
                           "expression such as std::chrono::minutes(5)");
      Out.HasFixOptions = true;
    } else if (Key == "StepSyncInterval") {
      std::string N;
      unsigned V = 0;
      if (!scalarText(Value, N) || llvm::StringRef(N).getAsInteger(10, V) ||
          V < 2)
        return Fail(Value, "'StepSyncInterval' must be a number >= 2");
      Out.Fixes.StepSyncInterval = V;
      Out.HasFixOptions = true;
    } else if (Key == "TuMemoryLimit") {
      std::string N;
      uint64_t Bytes = 0;
      if (!scalarText(Value, N) || !parseByteSize(N, Bytes))
        return Fail(Value, "'TuMemoryLimit' must be a size such as 4G or "
                           "800M (0: no limit)");
      Out.TuMemoryLimit = Bytes;
    } else if (Key == "Severities") {
      auto *Sevs = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(Value);
      if (!Sevs)
        return Fail(Value, "'Severities' must map rule ids to severities");
      for (llvm::yaml::KeyValueNode &S : *Sevs) {
        std::string Rule, Level;
        Severity Sev;
        if (!scalarText(S.getKey(), Rule) || !isKnownRule(Rule))
          return Fail(S.getKey(), "unknown rule '" + Rule + "' in Severities");
        if (!scalarText(S.getValue(), Level) || !parseSeverity(Level, Sev))
          return Fail(S.getValue(), "severity of '" + Rule +
                                        "' must be note, warning or error");
        Out.Severities[Rule] = Sev;
      }
    } else if (Key == "RankSources" || Key == "CollectiveWrappers" ||
               Key == "WorldSizeSources") {
      std::vector<std::string> &List =
          Key == "RankSources"          ? Out.User.RankSources
          : Key == "CollectiveWrappers" ? Out.User.CollectiveWrappers
                                        : Out.User.WorldSizeSources;
      if (!stringList(Value, List))
        return Fail(Value, "'" + Key +
                               "' must be a list of qualified function names");
    } else if (Key == "ReportErrorPathDivergence") {
      std::string B;
      if (!scalarText(Value, B) || (B != "true" && B != "false"))
        return Fail(Value, "'ReportErrorPathDivergence' must be true or false");
      Out.ReportErrorPathDivergence = B == "true";
    } else if (Key == "InheritParentConfig") {
      std::string B;
      if (!scalarText(Value, B) || (B != "true" && B != "false"))
        return Fail(Value, "'InheritParentConfig' must be true or false");
      InheritParent = B == "true";
    } else {
      return Fail(KV.getKey(), "unknown key '" + Key +
                                   "' (expected Rules/Checks, Severities, "
                                   "RankSources, WorldSizeSources, "
                                   "CollectiveWrappers, ReportErrorPathDivergence, "
                                   "InheritParentConfig, "
                                   "WarningsAsErrors, HeaderFilterRegex, "
                                   "ExcludeHeaderFilterRegex, "
                                   "MissingTimeoutDefault, StepSyncInterval, "
                                   "TuMemoryLimit)");
    }
  }
  if (!Errs.First.empty())
    return Error = Errs.First, false;
  if (++Doc != Stream.end())
    return Fail(nullptr, "expected a single YAML document");
  Out.Files.push_back(FileName.str());
  return true;
}

ConfigResolver::ConfigResolver(std::string ExplicitFile,
                               std::string InlineText)
    : ExplicitFile(std::move(ExplicitFile)), InlineText(std::move(InlineText)) {
}

bool ConfigResolver::load(llvm::StringRef Path, DistlintConfig &Out,
                          bool &Inherit, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = "cannot read config file " + Path.str() + ": " +
            Buffer.getError().message();
    return false;
  }
  return parseConfig((*Buffer)->getBuffer(), Path, Out, Inherit, Error);
}

bool ConfigResolver::configForDir(llvm::StringRef Dir, DistlintConfig &Out,
                                  std::string &Error) {
  // Caller holds Mutex.
  auto Cached = ByDir.find(Dir.str());
  if (Cached != ByDir.end()) {
    Out = Cached->second.Config;
    Error = Cached->second.Error;
    return Cached->second.Ok;
  }
  Entry E{true, {}, ""};
  llvm::SmallString<256> Candidate(Dir);
  llvm::sys::path::append(Candidate, ConfigFileName);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  bool HasParent = !Parent.empty() && Parent != Dir;
  if (llvm::sys::fs::exists(Candidate)) {
    DistlintConfig Own;
    bool Inherit = false;
    E.Ok = load(Candidate, Own, Inherit, E.Error);
    if (E.Ok && Inherit && HasParent)
      E.Ok = configForDir(Parent, E.Config, E.Error);
    if (E.Ok)
      E.Config.append(Own);
  } else if (HasParent) {
    E.Ok = configForDir(Parent, E.Config, E.Error);
  }
  ByDir[Dir.str()] = E;
  Out = E.Config;
  Error = E.Error;
  return E.Ok;
}

bool ConfigResolver::configFor(llvm::StringRef SourceFile, DistlintConfig &Out,
                               std::string &Error) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!ExplicitFile.empty() || !InlineText.empty()) {
    auto Cached = ByDir.find("");
    if (Cached == ByDir.end()) {
      Entry E{true, {}, ""};
      bool Inherit = false;
      if (!InlineText.empty()) {
        E.Ok = parseConfig(InlineText, "-config", E.Config, Inherit, E.Error);
        if (!E.Ok && !llvm::StringRef(InlineText).contains(':'))
          E.Error = "-config expects YAML text such as \"{Checks: "
                    "'-*,distlint-missing-*'}\"; to read a file use "
                    "--config-file=" + InlineText;
      } else {
        E.Ok = load(ExplicitFile, E.Config, Inherit, E.Error);
      }
      Cached = ByDir.emplace("", E).first;
    }
    Out = Cached->second.Config;
    Error = Cached->second.Error;
    return Cached->second.Ok;
  }
  return configForDir(llvm::sys::path::parent_path(SourceFile), Out, Error);
}

} // namespace distlint
