//===- RuleDocs.cpp -------------------------------------------------------===//
#include "RuleDocs.h"

#include "llvm/ADT/SmallVector.h"

namespace distlint {

std::string ruleDocOrPlaceholder(llvm::StringRef RuleId) {
  if (const char *Page = embeddedRuleDoc(RuleId))
    return Page;
  return "# " + RuleId.str() + "\n\nNo documentation page docs/rules/" +
         RuleId.str() +
         ".md existed when this distlint was built; rebuild after adding "
         "it.\n";
}

std::string ruleDocFirstParagraph(llvm::StringRef RuleId) {
  const char *Page = embeddedRuleDoc(RuleId);
  if (!Page)
    return "";
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Page).split(Lines, '\n');
  std::string Para;
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.starts_with("#") || (L.empty() && Para.empty()))
      continue; // title and blank lines before the first paragraph
    if (L.empty() || L.starts_with("```") || L.starts_with("|"))
      break;
    if (!Para.empty())
      Para += ' ';
    Para += L.str();
  }
  return Para;
}

} // namespace distlint
