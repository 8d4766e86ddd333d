#!/usr/bin/env bash
# Installs Microsoft's SARIF multitool (npm package @microsoft/sarif-multitool)
# into .tools/sarif (git-ignored) and prints the path of its executable (the
# native one: the npm launcher runs it through a shell, which splits
# arguments such as --rule-kind "Gh;Sarif").
# Exit 3 when the npm registry cannot be reached, so tests can skip clearly.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.tools/sarif"
bin="$dest/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v npm >/dev/null || { echo "npm not installed (run scripts/setup.sh)" >&2; exit 3; }
mkdir -p "$dest"
# Tests may call this concurrently: one installer at a time.
exec 9>"$dest/.lock"
flock 9
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
if ! npm install --silent --no-audit --no-fund --prefix "$dest" @microsoft/sarif-multitool >&2; then
  echo "npm install @microsoft/sarif-multitool failed (registry unreachable?)" >&2
  exit 3
fi
[ -x "$bin" ] || { echo "$bin missing after install" >&2; exit 3; }
echo "$bin"
