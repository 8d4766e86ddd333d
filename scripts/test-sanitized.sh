#!/usr/bin/env bash
# The extra sanitized checks of DISTLINT_SANITIZED=full (scripts/test.sh runs
# them after every default suite passed on the ASan+UBSan tree):
#   - a fuzz smoke per libFuzzer harness (two at a time), on that tree, which
#     was built with -DDISTLINT_FUZZ=ON;
#   - ThreadSanitizer on the runtime library: its unit tests and the NCCL
#     stand-in end-to-end runs (hooks on several threads + the watchdog).
#   bash scripts/test-sanitized.sh <asan-tree>
#   TSAN_BUILD_DIR       ThreadSanitizer tree (default build-tsan)
#   FUZZ_SMOKE_SECONDS   per harness (default 60)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
asan="${1:?usage: $0 <asan-tree built with -DDISTLINT_FUZZ=ON>}"
tsan="${TSAN_BUILD_DIR:-$root/build-tsan}"
jobs="${JOBS:-2}"
smoke="${FUZZ_SMOKE_SECONDS:-60}"
# shellcheck source=scripts/sanitizer-env.sh
source "$root/scripts/sanitizer-env.sh"

echo "== sanitized stage: ${smoke} s fuzz smoke per harness"
smoke_one() {
  FUZZ_BUILD_DIR="$asan" FUZZ_WORK="$asan/fuzz-smoke" FUZZ_SMOKE=1 \
    bash "$root/scripts/fuzz.sh" "$1" "$smoke" >"$asan/fuzz-smoke-$1.log" 2>&1
}
status=0
for pair in "lsp inputs" "trace analyze"; do
  pids=()
  for h in $pair; do smoke_one "$h" & pids+=($!); done
  for i in "${!pids[@]}"; do
    h=$(echo "$pair" | cut -d' ' -f$((i + 1)))
    if wait "${pids[$i]}"; then
      echo "fuzz smoke $h: $(grep -E '^stat::number_of_executed_units' "$asan/fuzz-smoke/$h/fuzz.log" | awk '{print $2}') executions, no crash"
    else
      echo "fuzz smoke $h FAILED:"; tail -40 "$asan/fuzz-smoke-$h.log"; status=1
    fi
  done
done
[ "$status" = 0 ]

echo "== sanitized stage: ThreadSanitizer on the runtime library ($tsan)"
CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$tsan" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DDISTLINT_SANITIZE=thread -DDISTLINT_UNITY_BUILD=ON -DDISTLINT_BUILD_TIDY_PLUGIN=OFF \
  -DDISTLINT_BUILD_RUNTIME=ON >/dev/null
cmake --build "$tsan" -j "$jobs" --target distlint-runtime-nccl-suite
(cd "$tsan" && ctest --output-on-failure -j "$jobs" -R '^runtime\.(unit\.|e2e\.nccl/)')
