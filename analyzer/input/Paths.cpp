//===- Paths.cpp ----------------------------------------------------------===//
#include "input/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace distlint {

std::string normalizePath(llvm::StringRef Path, llvm::StringRef Base) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    if (!Base.empty()) {
      llvm::SmallString<256> Joined(Base);
      llvm::sys::path::append(Joined, Path);
      Abs = Joined;
    } else {
      llvm::sys::fs::make_absolute(Abs);
    }
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::sys::path::native(Abs);
  return std::string(Abs);
}

bool isUnder(llvm::StringRef Path, llvm::StringRef Root) {
  Root = Root.rtrim('/');
  if (Root.empty())
    return Path.starts_with("/");
  return Path == Root ||
         (Path.starts_with(Root) && Path.size() > Root.size() &&
          Path[Root.size()] == '/');
}

std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef Root) {
  llvm::StringRef R = Root.rtrim('/');
  if (R.empty() || !isUnder(Path, R) || Path.size() == R.size())
    return Path.str();
  return Path.substr(R.size() + 1).str();
}

bool isUserPath(llvm::StringRef Path, llvm::StringRef ProjectRoot) {
  if (!ProjectRoot.empty() && isUnder(Path, ProjectRoot))
    return true;
  for (llvm::StringRef Prefix : {"/usr", "/opt", "/nix/store"})
    if (isUnder(Path, Prefix))
      return false;
  return true;
}

std::string findGitRoot(llvm::StringRef Dir) {
  llvm::SmallString<256> Cur(normalizePath(Dir));
  while (!Cur.empty()) {
    llvm::SmallString<256> Git(Cur);
    llvm::sys::path::append(Git, ".git");
    if (llvm::sys::fs::exists(Git))
      return std::string(Cur);
    // A copy: parent_path points into Cur, which the assignment rewrites.
    std::string Parent = llvm::sys::path::parent_path(Cur).str();
    if (Parent == Cur)
      break;
    Cur = Parent;
  }
  return "";
}

std::string resolveProjectRoot(llvm::StringRef ProjectRoot) {
  if (!ProjectRoot.empty())
    return normalizePath(ProjectRoot);
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return "/";
  std::string Git = findGitRoot(Cwd);
  return Git.empty() ? std::string(Cwd) : Git;
}

} // namespace distlint
