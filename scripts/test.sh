#!/usr/bin/env bash
# Sets up, builds and runs every test:  bash scripts/test.sh [ctest args...]
#   BUILD_DIR=<dir>    build directory (default: build/)
#   JOBS=<n>           build and test parallelism (default: 2)
#   BUILD_TYPE=<type>  CMake build type (default: Release; without -g the
#                      Clang-heavy sources compile about a third faster)
#   DISTLINT_HEAVY=1   also run the heavier suites (tests read it from the env)
#   DISTLINT_SANITIZED=1  also run the sanitized stage (scripts/test-sanitized.sh:
#                      ASan+UBSan fast suites, fuzz smoke, TSan runtime tests;
#                      not yet in the default run: it does not fit the 30-minute
#                      2-core budget beside the regular suites)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-2}"

bash "$root/scripts/setup.sh"
# The SARIF test validates with Microsoft's multitool; install it once here so
# parallel tests do not race (the test skips clearly if npm is unreachable).
bash "$root/scripts/install-sarif-multitool.sh" >/dev/null || true

# DISTLINT_UNITY_BUILD=ON batches the Clang-heavy sources (a cold build in
# about half the time; not yet the default here).
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DDISTLINT_UNITY_BUILD="${DISTLINT_UNITY_BUILD:-OFF}"
cmake --build "$build" -j "$jobs"
cd "$build"
# Benchmarks print ratios and are run on purpose, not as timed tests: they
# run with DISTLINT_HEAVY=1.
exclude=()
[ "${DISTLINT_HEAVY:-0}" = 1 ] || exclude=(-LE bench)
ctest --output-on-failure -j "$jobs" "${exclude[@]}" "$@"
if [ "${DISTLINT_SANITIZED:-0}" = 1 ] && [ $# = 0 ]; then
  bash "$root/scripts/test-sanitized.sh"
fi
