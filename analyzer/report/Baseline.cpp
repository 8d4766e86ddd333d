//===- Baseline.cpp -------------------------------------------------------===//
#include "report/Baseline.h"
#include "input/Paths.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace distlint {

using Json = nlohmann::ordered_json;

void writeBaseline(const std::vector<Finding> &Findings,
                   const std::string &ProjectRoot, llvm::raw_ostream &OS) {
  Json List = Json::array();
  for (const Finding &F : Findings)
    List.push_back({{"fingerprint", F.Fingerprint},
                    {"rule", F.Rule},
                    {"file", relativeToRoot(F.Loc.File, ProjectRoot)},
                    {"line", F.Loc.Line},
                    {"message", F.Message}});
  Json Doc = {{"version", 1}, {"tool", "distlint"}, {"findings", List}};
  OS << Doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

bool parseBaseline(const std::string &Text, const std::string &Name,
                   std::set<std::string> &Fingerprints, std::string &Error) {
  Json Doc = Json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Doc.is_discarded()) {
    Error = "baseline " + Name + " is not valid JSON";
    return false;
  }
  if (!Doc.is_object() || !Doc.contains("findings") ||
      !Doc["findings"].is_array()) {
    Error = "baseline " + Name + " has no \"findings\" array";
    return false;
  }
  for (const Json &F : Doc["findings"]) {
    if (!F.is_object() || !F.contains("fingerprint") ||
        !F["fingerprint"].is_string()) {
      Error = "baseline " + Name + " has a finding without a \"fingerprint\"";
      return false;
    }
    Fingerprints.insert(F["fingerprint"].get<std::string>());
  }
  return true;
}

unsigned applyBaseline(std::vector<Finding> &Findings,
                       const std::set<std::string> &Baseline) {
  size_t Before = Findings.size();
  Findings.erase(std::remove_if(Findings.begin(), Findings.end(),
                                [&](const Finding &F) {
                                  return Baseline.count(F.Fingerprint) != 0;
                                }),
                 Findings.end());
  return Before - Findings.size();
}

} // namespace distlint
