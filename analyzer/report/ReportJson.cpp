//===- ReportJson.cpp -----------------------------------------------------===//
#include "report/ReportJson.h"
#include "input/Paths.h"

#include "llvm/Support/Path.h"

namespace distlint {

namespace {
std::string store(llvm::StringRef Path, llvm::StringRef Root) {
  return Root.empty() ? Path.str() : relativeToRoot(Path, Root);
}
std::string anchor(const std::string &Path, llvm::StringRef Root) {
  if (Root.empty() || llvm::sys::path::is_absolute(Path))
    return Path;
  return normalizePath(Path, Root);
}

OrderedJson locationFields(const Location &L, llvm::StringRef Root) {
  return {
      {"file", store(L.File, Root)}, {"line", L.Line}, {"column", L.Column}};
}

bool readLocation(const OrderedJson &J, llvm::StringRef Root, Location &L) {
  if (!J.is_object() || !J.contains("file") || !J["file"].is_string() ||
      !J.contains("line") || !J["line"].is_number_unsigned() ||
      !J.contains("column") || !J["column"].is_number_unsigned())
    return false;
  L.File = anchor(J["file"].get<std::string>(), Root);
  L.Line = J["line"].get<unsigned>();
  L.Column = J["column"].get<unsigned>();
  return true;
}

bool readString(const OrderedJson &J, const char *Key, std::string &Out) {
  if (!J.contains(Key) || !J[Key].is_string())
    return false;
  Out = J[Key].get<std::string>();
  return true;
}
} // namespace

OrderedJson findingToJson(const Finding &F, llvm::StringRef Root) {
  OrderedJson Notes = OrderedJson::array();
  for (const Note &N : F.Notes) {
    OrderedJson Note = locationFields(N.Loc, Root);
    Note["message"] = N.Message;
    Notes.push_back(std::move(Note));
  }
  OrderedJson J = {{"rule", F.Rule}, {"severity", severityName(F.Sev)}};
  const OrderedJson Where = locationFields(F.Loc, Root);
  for (auto It = Where.begin(); It != Where.end(); ++It)
    J[It.key()] = *It;
  J["message"] = F.Message;
  J["notes"] = std::move(Notes);
  J["fingerprint"] = F.Fingerprint;
  return J;
}

bool findingFromJson(const OrderedJson &J, llvm::StringRef Root, Finding &Out,
                     std::string &Error) {
  std::string Sev;
  if (!readLocation(J, Root, Out.Loc) || !readString(J, "rule", Out.Rule) ||
      !readString(J, "severity", Sev) || !parseSeverity(Sev, Out.Sev) ||
      !readString(J, "message", Out.Message) ||
      !readString(J, "fingerprint", Out.Fingerprint)) {
    Error = "a finding lacks rule, severity, file, line, column, message or "
            "fingerprint";
    return false;
  }
  Out.Notes.clear();
  if (J.contains("notes")) {
    if (!J["notes"].is_array()) {
      Error = "a finding's notes are not an array";
      return false;
    }
    for (const OrderedJson &N : J["notes"]) {
      Note Parsed;
      if (!readLocation(N, Root, Parsed.Loc) ||
          !readString(N, "message", Parsed.Message)) {
        Error = "a note lacks file, line, column or message";
        return false;
      }
      Out.Notes.push_back(std::move(Parsed));
    }
  }
  return true;
}

OrderedJson fileErrorToJson(const FileError &E, llvm::StringRef Root) {
  return {{"file", store(E.File, Root)}, {"message", E.Message}};
}

bool fileErrorFromJson(const OrderedJson &J, llvm::StringRef Root,
                       FileError &Out, std::string &Error) {
  if (!J.is_object() || !readString(J, "file", Out.File) ||
      !readString(J, "message", Out.Message)) {
    Error = "an error entry lacks file or message";
    return false;
  }
  Out.File = anchor(Out.File, Root);
  return true;
}

bool resultFromJson(llvm::StringRef Text, AnalysisResult &Out,
                    std::string &Error) {
  OrderedJson Doc = OrderedJson::parse(Text.begin(), Text.end(), nullptr,
                                       /*allow_exceptions=*/false);
  if (Doc.is_discarded() || !Doc.is_object()) {
    Error = "not a JSON object";
    return false;
  }
  if (!Doc.contains("findings") || !Doc["findings"].is_array()) {
    Error = "no \"findings\" array (not a distlint --format=json report)";
    return false;
  }
  for (const OrderedJson &F : Doc["findings"]) {
    Finding Parsed;
    if (!findingFromJson(F, "", Parsed, Error))
      return false;
    Out.Findings.push_back(std::move(Parsed));
  }
  if (Doc.contains("errors") && Doc["errors"].is_array())
    for (const OrderedJson &E : Doc["errors"]) {
      FileError Parsed;
      if (!fileErrorFromJson(E, "", Parsed, Error))
        return false;
      Out.Errors.push_back(std::move(Parsed));
    }
  return true;
}

} // namespace distlint
