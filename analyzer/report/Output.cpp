//===- Output.cpp ---------------------------------------------------------===//
#include "report/Output.h"
#include "input/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"

#include <nlohmann/json.hpp>

#include <map>

namespace distlint {

using Json = nlohmann::ordered_json;

bool parseOutputFormat(const std::string &Text, OutputFormat &Out) {
  if (Text == "text")
    Out = OutputFormat::Text;
  else if (Text == "json")
    Out = OutputFormat::Json;
  else if (Text == "sarif")
    Out = OutputFormat::Sarif;
  else
    return false;
  return true;
}

//===--- Text -------------------------------------------------------------===//

namespace {
void writeLocation(const Location &L, llvm::raw_ostream &OS, bool Color) {
  if (Color)
    OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
  OS << L.File << ':' << L.Line << ':' << L.Column << ": ";
  if (Color)
    OS.resetColor();
}

void writeLabel(llvm::StringRef Label, llvm::raw_ostream::Colors C,
                llvm::raw_ostream &OS, bool Color) {
  if (Color)
    OS.changeColor(C, /*Bold=*/true);
  OS << Label << ": ";
  if (Color)
    OS.resetColor();
}

llvm::raw_ostream::Colors colorOf(Severity S) {
  switch (S) {
  case Severity::Error:
    return llvm::raw_ostream::RED;
  case Severity::Warning:
    return llvm::raw_ostream::MAGENTA;
  case Severity::Note:
    return llvm::raw_ostream::BLACK;
  }
  return llvm::raw_ostream::MAGENTA;
}
} // namespace

void writeText(const AnalysisResult &R, const OutputOptions &O,
               llvm::raw_ostream &OS) {
  for (const Finding &F : R.Findings) {
    writeLocation(F.Loc, OS, O.Color);
    writeLabel(severityName(F.Sev), colorOf(F.Sev), OS, O.Color);
    if (O.Color)
      OS.changeColor(llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    OS << F.Message << " [" << F.Rule << "]";
    if (O.Color)
      OS.resetColor();
    OS << '\n';
    for (const Note &N : F.Notes) {
      writeLocation(N.Loc, OS, O.Color);
      writeLabel("note", llvm::raw_ostream::BLACK, OS, O.Color);
      OS << N.Message << '\n';
    }
  }
}

void writeToolErrors(const std::vector<FileError> &Errors,
                     llvm::raw_ostream &OS, bool Color) {
  for (const FileError &E : Errors) {
    llvm::StringRef Message(E.Message);
    Location L{E.File, 1, 1};
    if (E.At.Line) {
      L = E.At;
      Message.consume_front(E.At.File + ":" + std::to_string(E.At.Line) + ":" +
                            std::to_string(E.At.Column) + ": ");
    }
    writeLocation(L, OS, Color);
    writeLabel("error", llvm::raw_ostream::RED, OS, Color);
    OS << Message;
    if (L.File != E.File)
      OS << " (in translation unit " << E.File << ")";
    OS << '\n';
  }
}

//===--- JSON -------------------------------------------------------------===//

void writeJson(const AnalysisResult &R, const OutputOptions &O,
               llvm::raw_ostream &OS) {
  Json Doc;
  Doc["tool"] = {{"name", "distlint"}, {"version", O.ToolVersion}};
  Json Findings = Json::array();
  for (const Finding &F : R.Findings) {
    Json Notes = Json::array();
    for (const Note &N : F.Notes)
      Notes.push_back({{"file", N.Loc.File},
                       {"line", N.Loc.Line},
                       {"column", N.Loc.Column},
                       {"message", N.Message}});
    Findings.push_back({{"rule", F.Rule},
                        {"severity", severityName(F.Sev)},
                        {"file", F.Loc.File},
                        {"line", F.Loc.Line},
                        {"column", F.Loc.Column},
                        {"message", F.Message},
                        {"notes", std::move(Notes)},
                        {"fingerprint", F.Fingerprint}});
  }
  Doc["findings"] = std::move(Findings);
  Json Errors = Json::array();
  for (const FileError &E : R.Errors)
    Errors.push_back({{"file", E.File}, {"message", E.Message}});
  Doc["errors"] = std::move(Errors);
  OS << Doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

//===--- SARIF ------------------------------------------------------------===//

namespace {
/// RFC 3986 percent-encoding of a path ('/' kept).
std::string encodeUriPath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C))
      Out += C;
    else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
      Out += llvm::hexdigit(C & 15, /*LowerCase=*/false);
    }
  }
  return Out;
}

const char *sarifLevel(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "warning";
}

/// "distlint-rank-divergent-collective" -> "RankDivergentCollective".
std::string ruleName(llvm::StringRef Id) {
  Id.consume_front("distlint-");
  std::string Name;
  bool Upper = true;
  for (char C : Id) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Name += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Name;
}

std::string withPeriod(std::string Text) {
  while (!Text.empty() && llvm::isSpace(Text.back()))
    Text.pop_back();
  if (!Text.empty() && !llvm::StringRef(".!?").contains(Text.back()))
    Text += '.';
  return Text;
}

Json artifactLocation(const std::string &File, const std::string &Root) {
  if (!Root.empty() && isUnder(File, Root) && File.size() > Root.size())
    return {{"uri", encodeUriPath(relativeToRoot(File, Root))},
            {"uriBaseId", "%SRCROOT%"}};
  return {{"uri", "file://" + encodeUriPath(File)}};
}

Json physicalLocation(const Location &L, const std::string &Root) {
  Json Region = {{"startLine", std::max(1u, L.Line)}};
  if (L.Column)
    Region["startColumn"] = L.Column;
  return {{"artifactLocation", artifactLocation(L.File, Root)},
          {"region", std::move(Region)}};
}
} // namespace

void writeSarif(const AnalysisResult &R, const OutputOptions &O,
                llvm::raw_ostream &OS) {
  std::string Root = O.ProjectRoot;
  while (Root.size() > 1 && Root.back() == '/')
    Root.pop_back();

  // Rules: the known ones in their fixed order, then any other id used.
  std::vector<RuleDescription> Rules = O.Rules;
  std::map<std::string, size_t> RuleIndex;
  for (size_t I = 0; I < Rules.size(); ++I)
    RuleIndex[Rules[I].Id] = I;
  for (const Finding &F : R.Findings)
    if (!RuleIndex.count(F.Rule)) {
      RuleIndex[F.Rule] = Rules.size();
      Rules.push_back({F.Rule, F.Rule, F.Rule, ""});
    }

  Json RulesJson = Json::array();
  for (const RuleDescription &D : Rules) {
    Json Rule = {{"id", D.Id},
                 {"name", ruleName(D.Id)},
                 {"shortDescription", {{"text", withPeriod(D.Summary)}}},
                 {"fullDescription",
                  {{"text", withPeriod(D.Description.empty() ? D.Summary
                                                             : D.Description)}}}};
    std::string Help = D.HelpMarkdown.empty() ? withPeriod(D.Summary)
                                              : D.HelpMarkdown;
    Rule["help"] = {{"text", Help}, {"markdown", Help}};
    Rule["defaultConfiguration"] = {{"level", "warning"}};
    Rule["properties"] = {{"tags", {"correctness", "distributed"}},
                          {"precision", "high"}};
    RulesJson.push_back(std::move(Rule));
  }

  Json Results = Json::array();
  for (const Finding &F : R.Findings) {
    Json Result = {{"ruleId", F.Rule},
                   {"ruleIndex", RuleIndex[F.Rule]},
                   {"level", sarifLevel(F.Sev)},
                   {"message", {{"text", withPeriod(F.Message)}}},
                   {"locations",
                    {{{"physicalLocation", physicalLocation(F.Loc, Root)}}}},
                   {"partialFingerprints",
                    {{"distlintFingerprint/v1", F.Fingerprint}}}};
    if (!F.Notes.empty()) {
      Json Related = Json::array();
      unsigned Id = 1;
      for (const Note &N : F.Notes)
        Related.push_back({{"id", Id++},
                           {"physicalLocation", physicalLocation(N.Loc, Root)},
                           {"message", {{"text", withPeriod(N.Message)}}}});
      Result["relatedLocations"] = std::move(Related);
    }
    Results.push_back(std::move(Result));
  }

  Json Notifications = Json::array();
  for (const FileError &E : R.Errors)
    Notifications.push_back(
        {{"level", "error"},
         {"message", {{"text", withPeriod(E.Message)}}},
         {"locations",
          {{{"physicalLocation",
             {{"artifactLocation", artifactLocation(E.File, Root)}}}}}}});

  Json Run;
  Run["tool"] = {{"driver",
                  {{"name", "distlint"},
                   {"version", O.ToolVersion},
                   {"semanticVersion", O.ToolVersion},
                   {"rules", std::move(RulesJson)}}}};
  if (!Root.empty())
    Run["originalUriBaseIds"] = {
        {"%SRCROOT%", {{"uri", "file://" + encodeUriPath(Root) + "/"}}}};
  Json Invocation = {{"executionSuccessful", R.Errors.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);
  Run["invocations"] = Json::array({std::move(Invocation)});
  Run["results"] = std::move(Results);
  Run["columnKind"] = "unicodeCodePoints";

  Json Doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", Json::array({std::move(Run)})}};
  OS << Doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void writeResult(OutputFormat F, const AnalysisResult &R,
                 const OutputOptions &O, llvm::raw_ostream &OS) {
  switch (F) {
  case OutputFormat::Text:
    return writeText(R, O, OS);
  case OutputFormat::Json:
    return writeJson(R, O, OS);
  case OutputFormat::Sarif:
    return writeSarif(R, O, OS);
  }
}

} // namespace distlint
