#!/usr/bin/env bash
# The sanitized stage of scripts/test.sh (issue 11), run after the regular
# build's suites. Two sizes:
#   fast (the default .ci/run): an ASan+UBSan build (clang-19, unity
#      batches, -O0 to keep the build short) of the engine, driver, preload
#      library and their tests; on it run the fast suites: unit tests, the
#      testdata harness, robustness, fuzz replays, the runtime unit and
#      end-to-end tests (the preload library in real NCCL stand-in, MPI and
#      launcher runs).
#   full (DISTLINT_SANITIZED=full): the same build with libFuzzer coverage
#      and the fuzz harnesses, the suites above, a 60-second fuzz smoke per
#      harness (two at a time), and ThreadSanitizer on the runtime library:
#      its unit tests and the NCCL stand-in end-to-end runs (hooks on several
#      threads + the watchdog).
# Any sanitizer report aborts the process it is in, so a test cannot pass
# over one.
#   bash scripts/test-sanitized.sh [fast|full]
#   SAN_BUILD_DIR / TSAN_BUILD_DIR   build trees (default build-asan, build-tsan)
#   FUZZ_SMOKE_SECONDS               per harness in full mode (default 60)
#   DISTLINT_SANITIZE_SUITES=all     every default suite on the ASan build
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
asan="${SAN_BUILD_DIR:-$root/build-asan}"
tsan="${TSAN_BUILD_DIR:-$root/build-tsan}"
jobs="${JOBS:-2}"
mode="${1:-fast}"
case "$mode" in fast|full) ;; *) echo "usage: $0 [fast|full]" >&2; exit 2 ;; esac
smoke="${FUZZ_SMOKE_SECONDS:-60}"
[ "$mode" = full ] || smoke=0
fuzz=OFF
[ "$mode" = full ] && fuzz=ON

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/sanitizers/tsan.supp"

configure() { # dir sanitizers [extra cmake args]
  local dir="$1" san="$2"; shift 2
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DDISTLINT_SANITIZE="$san" -DDISTLINT_UNITY_BUILD=ON -DDISTLINT_BUILD_TIDY_PLUGIN=OFF \
    "$@" >/dev/null
}

echo "== sanitized stage ($mode): ASan+UBSan build ($asan)"
start=$(date +%s)
configure "$asan" address,undefined -DDISTLINT_FUZZ=$fuzz
cmake --build "$asan" -j "$jobs"

fast='^(api\.unit|rules_engine\.unit|collectives\.unit|driver\.unit\.|testdata/|testdata_harness\.|robustness\.|fuzz\.replay\.|runtime\.(unit|e2e|launch)\.)'
select=(-R "$fast")
[ "${DISTLINT_SANITIZE_SUITES:-}" = all ] && select=()
echo "== sanitized stage ($mode): built in $(($(date +%s) - start)) s; suites on the ASan+UBSan build"
(cd "$asan" && ctest --output-on-failure -j "$jobs" -LE 'bench|torch|known-gap' "${select[@]}")
echo "== sanitized stage ($mode): ASan+UBSan build and suites took $(($(date +%s) - start)) s"

if [ "$smoke" -gt 0 ]; then
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
fi

[ "$mode" = full ] || exit 0
echo "== sanitized stage: ThreadSanitizer on the runtime library ($tsan)"
configure "$tsan" thread -DDISTLINT_BUILD_RUNTIME=ON
cmake --build "$tsan" -j "$jobs" --target distlint-runtime-nccl-suite
(cd "$tsan" && ctest --output-on-failure -j "$jobs" -R '^runtime\.(unit\.|e2e\.nccl/)')
