#!/usr/bin/env bash
# Sets up, builds distlint and analyzes the example project under examples/:
#   bash scripts/demo.sh [extra distlint options, e.g. --format=sarif]
# Prints the findings; exits 0 when distlint ran (findings are the point of
# the demo), 2 when something failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}"
cmake --build "$build" -j "${JOBS:-2}" --target distlint

if [ ! -f "$root/examples/CMakeLists.txt" ]; then
  echo "demo: examples/CMakeLists.txt is missing: this checkout has no example project to analyze" >&2
  exit 2
fi
# Configuring is enough: it writes build/examples/compile_commands.json.
cmake -S "$root/examples" -B "$build/examples" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
set +e
"$build/bin/distlint" -p "$build/examples" --all "$@"
rc=$?
set -e
case $rc in
  0) echo "demo: no findings" ;;
  1) echo "demo: distlint reported the findings above (exit 1 = findings)" ;;
  *) echo "demo: distlint failed (exit $rc)" >&2; exit 2 ;;
esac
