#!/usr/bin/env bash
# Sets up, builds and runs every test:  bash scripts/test.sh [ctest args...]
#   DISTLINT_SANITIZED=full|fast|0  which build the suites run on:
#     full (default; what .ci/run runs): one ASan+UBSan build of everything
#          (clang-19, -O0, unity batches, libFuzzer coverage): engine,
#          driver, clang-tidy plugin, preload library, fuzz harnesses and
#          tests, with every default suite on it. One tree, not a regular one
#          beside a sanitized one: two engine builds do not fit the 30-minute
#          CI budget on 2 cores, and the sanitized one finds what the regular
#          one would and more. Then ThreadSanitizer on the runtime library
#          and a 30-second fuzz smoke per harness (scripts/test-sanitized.sh)
#     fast the same without libFuzzer coverage; the fuzz smoke only of the
#          harnesses that need no engine (lsp, trace), in a small tree
#     0    the regular build users get (g++, BUILD_TYPE, default Release)
#   BUILD_DIR=<dir>    build directory (default: build-asan, or build/ for 0)
#   JOBS=<n>           build and test parallelism (default: 2)
#   BUILD_TYPE=<type>  CMake build type of the regular build (default Release)
#   DISTLINT_HEAVY=1   also run the heavier suites (tests read it from the env):
#                      benchmarks, every LibTorch program on 2.x headers, under
#                      Gloo and without preamble sharing
#   DISTLINT_UNITY_BUILD=ON|OFF  batch the Clang-heavy sources (on by default
#                      in the sanitized builds; off in the regular one, where
#                      incremental builds with ccache are better without)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${JOBS:-2}"
sanitized="${DISTLINT_SANITIZED:-full}"
[ "$sanitized" = 1 ] && sanitized=full
case "$sanitized" in fast|full|0) ;; *)
  echo "scripts/test.sh: DISTLINT_SANITIZED=$sanitized: want full, fast or 0" >&2; exit 2 ;;
esac
start=$(date +%s)
stage() { echo "== $1 ($(($(date +%s) - start)) s since the start)"; }

bash "$root/scripts/setup.sh"
# The SARIF test validates with Microsoft's multitool; install it once here so
# parallel tests do not race (the test skips clearly if npm is unreachable).
bash "$root/scripts/install-sarif-multitool.sh" >/dev/null || true

stage "set up; the build ($([ "$sanitized" = 0 ] && echo regular || echo "ASan+UBSan, $sanitized"))"
if [ "$sanitized" = 0 ]; then
  build="${BUILD_DIR:-$root/build}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
    -DDISTLINT_UNITY_BUILD="${DISTLINT_UNITY_BUILD:-OFF}"
else
  build="${BUILD_DIR:-$root/build-asan}"
  # shellcheck source=scripts/sanitizer-env.sh
  source "$root/scripts/sanitizer-env.sh"
  fuzz=OFF; [ "$sanitized" = full ] && fuzz=ON
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
    -DDISTLINT_SANITIZE=address,undefined -DDISTLINT_FUZZ=$fuzz \
    -DDISTLINT_UNITY_BUILD="${DISTLINT_UNITY_BUILD:-ON}"
fi
cmake --build "$build" -j "$jobs"
stage "built; the suites"
cd "$build"
# Benchmarks print ratios and are run on purpose, not as timed tests: they
# run with DISTLINT_HEAVY=1.
exclude=()
[ "${DISTLINT_HEAVY:-0}" = 1 ] || exclude=(-LE bench)
ctest --output-on-failure -j "$jobs" "${exclude[@]}" "$@"
if [ "$sanitized" != 0 ] && [ $# = 0 ]; then
  stage "suites passed; ThreadSanitizer and the fuzz smoke"
  bash "$root/scripts/test-sanitized.sh" "$build" "$sanitized"
fi
stage "all passed"
