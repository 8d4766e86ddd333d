//===- Rule.h - Base class of distlint's rules ------------------*- C++ -*-===//
//
// Modelled on clang-tidy's ClangTidyCheck: a rule registers AST matchers once
// and reports from check(). Rules do not re-derive facts about ranks or
// collectives; they ask the shared Engine (engine/Engine.h).
//
// The same rule classes run inside the standalone `distlint` binary and inside
// clang-tidy (libdistlint-tidy.so); DiagnosticSink hides which one it is.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Finding.h"
#include "fixes/FixOptions.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace distlint {

class Engine;

/// A finding still expressed in Clang source locations.
struct RawNote {
  clang::SourceLocation Loc;
  std::string Message;
  /// A place in another TU (a function summarized there): used when Loc
  /// is invalid. Absolute path, 1-based line.
  std::string OtherFile;
  unsigned OtherLine = 0;
};
struct RawFinding {
  std::string Rule;
  clang::SourceLocation Loc;
  std::string Message;
  /// The rule's rating; the configuration may override it (Severities).
  Severity Sev = Severity::Warning;
  std::vector<RawNote> Notes;
  /// Edits of a safe mechanical fix (analyzer/fixes/); all or nothing.
  std::vector<clang::FixItHint> Fixes;
};

/// Where rules send findings. The standalone driver converts them into
/// Finding (applying NOLINT, system-header filtering and fingerprints); the
/// clang-tidy plugin turns them into clang-tidy diagnostics.
class DiagnosticSink {
public:
  virtual ~DiagnosticSink();
  virtual void report(RawFinding F, const clang::SourceManager &SM) = 0;
  /// The engine's limits that were hit in this TU (Budget::Hits): the
  /// findings may be partial. Called once, after the rules ran.
  virtual void limitsHit(const std::vector<std::string> &Lines) {}
};

/// Replaces %0..%9 in Format with Args (clang's diagnostic placeholders;
/// `%%` is a literal percent sign). Without arguments Format is returned as
/// is; a placeholder without an argument stays as written, so a missing
/// argument shows in the message and in tests.
std::string formatMessage(llvm::StringRef Format,
                          llvm::ArrayRef<std::string> Args);

/// Builder returned by Rule::diag(); the finding is emitted when it dies.
/// Arguments for the message's %0, %1... come with <<, like clang's
/// DiagnosticBuilder: `diag(Loc, "'%0' in every step", SM) << Name;`.
/// Notes take their own arguments: `.note(Loc, "made at line %0", {Line})`.
class FindingBuilder {
public:
  FindingBuilder(DiagnosticSink &Sink, const clang::SourceManager &SM,
                 RawFinding F)
      : Sink(&Sink), SM(&SM), F(std::move(F)) {}
  FindingBuilder(FindingBuilder &&Other) noexcept;
  FindingBuilder(const FindingBuilder &) = delete;
  ~FindingBuilder();
  FindingBuilder &note(clang::SourceLocation Loc, llvm::StringRef Format,
                       llvm::ArrayRef<std::string> Args = {});
  /// A note at a line of a file outside this TU (another TU's function,
  /// api/ProjectFacts.h).
  FindingBuilder &noteIn(const std::string &File, unsigned Line,
                         llvm::StringRef Format,
                         llvm::ArrayRef<std::string> Args = {});
  /// Attaches a fix (analyzer/fixes/ builders); an empty one adds nothing.
  FindingBuilder &fix(std::vector<clang::FixItHint> Hints);
  /// Rates the finding below the default warning (a note: advice rather
  /// than a defect); `Severities` in the configuration can raise it.
  FindingBuilder &severity(Severity S) {
    F.Sev = S;
    return *this;
  }

  FindingBuilder &operator<<(llvm::StringRef Arg) {
    Args.push_back(Arg.str());
    return *this;
  }
  FindingBuilder &operator<<(const char *Arg) {
    return *this << llvm::StringRef(Arg);
  }
  FindingBuilder &operator<<(const std::string &Arg) {
    return *this << llvm::StringRef(Arg);
  }
  FindingBuilder &operator<<(long long Arg) {
    return *this << std::to_string(Arg);
  }
  FindingBuilder &operator<<(int Arg) { return *this << (long long)Arg; }
  FindingBuilder &operator<<(unsigned Arg) {
    return *this << (long long)Arg;
  }

private:
  DiagnosticSink *Sink;
  const clang::SourceManager *SM;
  RawFinding F;
  std::vector<std::string> Args;
};

/// Everything a rule may use while a translation unit is analyzed.
struct RuleContext {
  Engine *TheEngine = nullptr;
  DiagnosticSink *Sink = nullptr;
  /// What fix-its insert; null = FixOptions' defaults.
  const FixOptions *Fixes = nullptr;
};

class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  explicit Rule(llvm::StringRef Id) : Id(Id.str()) {}
  ~Rule() override;

  llvm::StringRef id() const { return Id; }

  /// Called once per translation unit before matching.
  virtual void registerMatchers(clang::ast_matchers::MatchFinder &Finder) = 0;
  virtual void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) = 0;
  /// Called after all matches of a translation unit were delivered.
  virtual void onEndOfTranslationUnit() {}

  void setContext(RuleContext Ctx) { Context = Ctx; }
  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) override {
    check(Result);
  }

protected:
  Engine &engine() const { return *Context.TheEngine; }
  const FixOptions &fixOptions() const {
    static const FixOptions Defaults;
    return Context.Fixes ? *Context.Fixes : Defaults;
  }
  /// A finding of this rule at Loc; Format may use %0-style arguments
  /// given with << on the result.
  FindingBuilder diag(clang::SourceLocation Loc, llvm::StringRef Format,
                      const clang::SourceManager &SM);

private:
  std::string Id;
  RuleContext Context;
};

struct RuleInfo {
  const char *Id;
  const char *Summary; ///< One line, used by --list-rules and SARIF.
  std::unique_ptr<Rule> (*Create)();
};

/// All rules distlint knows, in a fixed order (rules/AllRules.cpp).
const std::vector<RuleInfo> &allRules();

} // namespace distlint
