//===- FuzzInputs.cpp - the readers of user-supplied files ----------------===//
#include "Harnesses.h"

#include "CompileCommands.h"
#include "report/Baseline.h"
#include "input/Config.h"
#include "input/Filters.h"
#include "input/ResultSerialization.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include <set>
#include <string>

namespace distlint::fuzz {

int readInputs(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  std::string Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  std::string Error;
  switch (Data[0] % 6) {
  case 0: {
    auto DB = clang::tooling::JSONCompilationDatabase::loadFromBuffer(
        Text, Error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
    if (!DB)
      break;
    for (const clang::tooling::CompileCommand &C : DB->getAllCompileCommands()) {
      std::vector<std::string> Args = cleanCommandLine(
          C.CommandLine, "/resource", false, {"-DBEFORE"}, {"-DAFTER"});
      relaxForGcc(Args);
    }
    break;
  }
  case 1: {
    DistlintConfig Config;
    bool Inherit = false;
    if (parseConfig(Text, "/fuzz/.distlint.yaml", Config, Inherit, Error)) {
      Config.ruleEnabled("distlint-missing-timeout", "-*,distlint-*");
      Config.severityOf("distlint-missing-timeout");
    }
    break;
  }
  case 2: {
    LineFilter Filter;
    if (Filter.parse(Text, Error))
      Filter.passes("/fuzz/a.cpp", 10);
    break;
  }
  case 3: {
    std::set<std::string> Fingerprints;
    parseBaseline(Text, "baseline.json", Fingerprints, Error);
    break;
  }
  case 4: {
    TranslationUnitResult R;
    if (deserializeResult(Text, R, Error) && serializeResult(R) != Text)
      __builtin_trap(); // What was accepted must round-trip exactly.
    break;
  }
  case 5: {
    ChangedLines Changed = parseUnifiedDiff(Text);
    Changed.contains("a.cpp", 3);
    break;
  }
  }
  return 0;
}

} // namespace distlint::fuzz
