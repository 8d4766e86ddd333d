//===- Filters.cpp --------------------------------------------------------===//
#include "input/Filters.h"
#include "input/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <nlohmann/json.hpp>

namespace distlint {

bool LineFilter::parse(const std::string &Text, std::string &Error) {
  using Json = nlohmann::json;
  Entries.clear();
  Json Doc = Json::parse(Text, nullptr, /*allow_exceptions=*/false);
  auto Bad = [&](const std::string &Why) {
    Error = "invalid --line-filter: " + Why;
    return false;
  };
  if (Doc.is_discarded())
    return Bad("not valid JSON");
  if (!Doc.is_array())
    return Bad("expected a JSON array of {\"name\":..., \"lines\":[[a,b]]}");
  for (const Json &E : Doc) {
    if (!E.is_object() || !E.contains("name") || !E["name"].is_string())
      return Bad("every entry needs a \"name\" string");
    Entry Out{E["name"].get<std::string>(), {}};
    if (E.contains("lines")) {
      if (!E["lines"].is_array())
        return Bad("\"lines\" must be an array of [first, last] pairs");
      for (const Json &R : E["lines"]) {
        if (!R.is_array() || R.size() != 2 || !R[0].is_number_unsigned() ||
            !R[1].is_number_unsigned())
          return Bad("\"lines\" must be an array of [first, last] pairs");
        unsigned First = R[0].get<unsigned>(), Last = R[1].get<unsigned>();
        if (First > Last)
          return Bad("range [" + std::to_string(First) + "," +
                     std::to_string(Last) + "] of \"" + Out.Name +
                     "\" is reversed (first line after the last)");
        Out.Lines.push_back({First, Last});
      }
    }
    Entries.push_back(std::move(Out));
  }
  return true;
}

bool LineFilter::passes(const std::string &File, unsigned Line) const {
  if (Entries.empty())
    return true;
  for (const Entry &E : Entries) {
    if (!llvm::StringRef(File).ends_with(E.Name))
      continue;
    if (E.Lines.empty())
      return true;
    for (const auto &[First, Last] : E.Lines)
      if (First <= Line && Line <= Last)
        return true;
    return false;
  }
  return false;
}

bool ChangedLines::contains(const std::string &RelativeFile,
                            unsigned Line) const {
  auto It = Ranges.find(RelativeFile);
  if (It == Ranges.end())
    return false;
  for (const auto &[First, Last] : It->second)
    if (First <= Line && Line <= Last)
      return true;
  return false;
}

namespace {
/// git quotes unusual paths as C strings: "a\tb".
std::string unquoteGitPath(llvm::StringRef P) {
  if (P.size() < 2 || !P.starts_with("\"") || !P.ends_with("\""))
    return P.str();
  P = P.drop_front().drop_back();
  std::string Out;
  for (size_t I = 0; I < P.size(); ++I) {
    if (P[I] != '\\' || I + 1 == P.size()) {
      Out += P[I];
      continue;
    }
    char C = P[++I];
    if (C >= '0' && C <= '7' && I + 2 < P.size()) {
      Out += char((C - '0') * 64 + (P[I + 1] - '0') * 8 + (P[I + 2] - '0'));
      I += 2;
    } else {
      Out += C == 't' ? '\t' : C == 'n' ? '\n' : C;
    }
  }
  return Out;
}
} // namespace

ChangedLines parseUnifiedDiff(const std::string &Diff) {
  ChangedLines Out;
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Diff).split(Lines, '\n');
  std::string Current;
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      std::string Path = unquoteGitPath(L.rtrim("\r\t"));
      llvm::StringRef P(Path);
      Current = P.consume_front("b/") ? P.str() : "";
      continue;
    }
    if (Current.empty() || !L.consume_front("@@ "))
      continue;
    // @@ -a[,b] +c[,d] @@
    size_t Plus = L.find('+');
    if (Plus == llvm::StringRef::npos)
      continue;
    llvm::StringRef New = L.substr(Plus + 1);
    New = New.take_until([](char C) { return C == ' '; });
    auto [StartText, CountText] = New.split(',');
    unsigned Start = 0, Count = 1;
    if (StartText.getAsInteger(10, Start) ||
        (!CountText.empty() && CountText.getAsInteger(10, Count)))
      continue;
    if (Count > 0)
      Out.Ranges[Current].push_back({Start, Start + Count - 1});
  }
  return Out;
}

namespace {
bool runGit(const std::vector<std::string> &Args, std::string &Output,
            std::string &Error) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    Error = "--diff needs git, which is not on PATH";
    return false;
  }
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("distlint-git", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("distlint-git", "err", ErrFile)) {
    Error = "cannot create a temporary file for git output";
    return false;
  }
  std::vector<llvm::StringRef> Argv = {*Git};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutFile), llvm::StringRef(ErrFile)};
  std::string ExecError;
  int Rc = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0,
                                     &ExecError);
  auto Read = [](llvm::StringRef Path) {
    auto B = llvm::MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  Output = Read(OutFile);
  std::string Err = Read(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  if (Rc != 0) {
    llvm::StringRef FirstLine = llvm::StringRef(Err).trim().split('\n').first;
    Error = "git failed: " +
            (FirstLine.empty() ? ExecError : FirstLine.str());
    return false;
  }
  return true;
}
} // namespace

bool changedLinesSince(const std::string &Revision, const std::string &Dir,
                       ChangedLines &Out, std::string &GitRoot,
                       std::string &Error) {
  // A "revision" such as --output=FILE would be an option to git.
  if (llvm::StringRef(Revision).starts_with("-")) {
    Error = "--diff revision '" + Revision +
            "' starts with '-'; give a commit, branch or tag";
    return false;
  }
  std::string Top;
  if (!runGit({"-C", Dir, "rev-parse", "--show-toplevel"}, Top, Error))
    return false;
  GitRoot = normalizePath(llvm::StringRef(Top).trim());
  std::string Diff;
  if (!runGit({"-C", GitRoot, "-c", "core.quotepath=off", "diff", "-U0",
               "--no-color", "--no-ext-diff", "--src-prefix=a/",
               "--dst-prefix=b/", "--end-of-options", Revision, "--"},
              Diff, Error))
    return false;
  Out = parseUnifiedDiff(Diff);
  // New files that are not even staged yet are changed everywhere too.
  std::string Untracked;
  if (!runGit({"-C", GitRoot, "ls-files", "--others", "--exclude-standard",
               "-z"},
              Untracked, Error))
    return false;
  llvm::SmallVector<llvm::StringRef> Files;
  llvm::StringRef(Untracked).split(Files, '\0', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef F : Files)
    Out.Ranges[F.str()].push_back({1, ~0u});
  return true;
}

} // namespace distlint
