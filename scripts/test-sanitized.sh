#!/usr/bin/env bash
# The sanitized checks scripts/test.sh runs after every default suite passed
# on the ASan+UBSan tree:
#   - ThreadSanitizer on the runtime library: its unit tests and the NCCL
#     stand-in end-to-end runs (hooks on several threads + the watchdog), in
#     a tree of its own that builds only the runtime (about a minute);
#   - a fuzz smoke per libFuzzer harness, two at a time. fast: the harnesses
#     that need no engine (lsp, trace), built with libFuzzer in a small tree
#     of their own (build-fuzz); full: all four on the ASan tree, which was
#     then built with -DDISTLINT_FUZZ=ON (the engine with coverage).
#   bash scripts/test-sanitized.sh <asan-tree> [fast|full]
#   TSAN_BUILD_DIR       ThreadSanitizer tree (default build-tsan)
#   FUZZ_SMOKE_SECONDS   per harness (default 30)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
asan="$(cd "${1:?usage: $0 <asan-tree> [fast|full]}" && pwd)"
mode="${2:-fast}"
case "$mode" in fast|full) ;; *) echo "usage: $0 <asan-tree> [fast|full]" >&2; exit 2 ;; esac
tsan="${TSAN_BUILD_DIR:-$root/build-tsan}"
jobs="${JOBS:-2}"
smoke="${FUZZ_SMOKE_SECONDS:-30}"
# shellcheck source=scripts/sanitizer-env.sh
source "$root/scripts/sanitizer-env.sh"

echo "== sanitized stage: ThreadSanitizer on the runtime library ($tsan)"
CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DDISTLINT_SANITIZE=thread -DDISTLINT_UNITY_BUILD=ON -DDISTLINT_BUILD_TIDY_PLUGIN=OFF \
  -DDISTLINT_BUILD_RUNTIME=ON >/dev/null
cmake --build "$tsan" -j "$jobs" --target distlint-runtime-nccl-suite >/dev/null
(cd "$tsan" && ctest --output-on-failure -j "$jobs" -R '^runtime\.(unit\.|e2e\.nccl/)' | tail -3)

fuzz_tree="$asan"; pairs=("lsp inputs" "trace analyze")
if [ "$mode" = fast ]; then fuzz_tree="${FUZZ_BUILD_DIR:-$root/build-fuzz}"; pairs=("lsp trace"); fi
echo "== sanitized stage: ${smoke} s fuzz smoke per harness ($fuzz_tree)"
smoke_one() {
  FUZZ_BUILD_DIR="$fuzz_tree" FUZZ_WORK="$fuzz_tree/fuzz-smoke" FUZZ_SMOKE=1 FUZZ_SEED_TREE="$asan" \
    bash "$root/scripts/fuzz.sh" "$1" "$smoke" >"$fuzz_tree/fuzz-smoke-$1.log" 2>&1
}
if [ ! -f "$fuzz_tree/build.ninja" ]; then
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$fuzz_tree" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDISTLINT_SANITIZE=address,undefined -DDISTLINT_FUZZ=ON -DDISTLINT_BUILD_TIDY_PLUGIN=OFF >/dev/null
fi
# Built here, so the parallel fuzz.sh runs below find them up to date.
targets=(); for pair in "${pairs[@]}"; do for h in $pair; do targets+=("distlint_fuzz_$h"); done; done
cmake --build "$fuzz_tree" -j "$jobs" --target "${targets[@]}" >/dev/null
status=0
for pair in "${pairs[@]}"; do
  pids=()
  for h in $pair; do smoke_one "$h" & pids+=($!); done
  for i in "${!pids[@]}"; do
    h=$(echo "$pair" | cut -d' ' -f$((i + 1)))
    if wait "${pids[$i]}"; then
      echo "fuzz smoke $h: $(grep -a -E '^stat::number_of_executed_units' "$fuzz_tree/fuzz-smoke/$h/fuzz.log" | awk '{print $2}') executions, no crash"
    else
      echo "fuzz smoke $h FAILED:"; tail -40 "$fuzz_tree/fuzz-smoke-$h.log"; status=1
    fi
  done
done
[ "$status" = 0 ]
