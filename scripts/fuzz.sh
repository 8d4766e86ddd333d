#!/usr/bin/env bash
# Builds and runs distlint's libFuzzer harnesses (tests/fuzz/).
#   bash scripts/fuzz.sh <harness|all> <seconds> [libFuzzer args...]
#   harness: analyze | inputs | lsp | trace
#   FUZZ_BUILD_DIR (default build-fuzz), FUZZ_WORK (default $FUZZ_BUILD_DIR/fuzz-work)
#   FUZZ_SEED_TREE  build tree whose distlint-rt records the trace seeds
#   FUZZ_SMOKE=1   seed the analyze harness from testdata/driver only, so a
#                  short run spends its time mutating, not replaying testdata
# Corpora and logs go to $FUZZ_WORK/<harness>/; crashes are written there as
# crash-*: minimize them and keep them in tests/fuzz/crashers/<harness>/, which
# ctest (fuzz.replay.*) replays in every build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
work="${FUZZ_WORK:-$build/fuzz-work}"
what="${1:?harness}"; seconds="${2:?seconds}"; shift 2
harnesses=("$what"); [ "$what" = all ] && harnesses=(lsp inputs trace analyze)

if [ ! -f "$build/build.ninja" ]; then
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDISTLINT_SANITIZE=address,undefined -DDISTLINT_FUZZ=ON -DDISTLINT_BUILD_TIDY_PLUGIN=OFF >/dev/null
fi
targets=(); for h in "${harnesses[@]}"; do targets+=("distlint_fuzz_$h"); done
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]}" >/dev/null

seed_dirs() {
  case "$1" in
    analyze) if [ "${FUZZ_SMOKE:-0}" = 1 ]; then echo "$root/testdata/driver"; else echo "$root/testdata"; fi ;;
    trace)
      # Real traces of a small run (64 records per rank), made by the recorder
      # of FUZZ_SEED_TREE (default: this tree when it has the runtime suites,
      # else build/).
      local t="$work/trace-seeds" rec="${FUZZ_SEED_TREE:-$build}"
      [ -x "$rec/bin/distlint-rt" ] || rec="$root/build"
      if [ ! -d "$t" ]; then
        local prog="$rec/tests/runtime/bin/send_recv_under_rank_clean"
        mkdir -p "$t"
        if [ -x "$prog" ] && [ -x "$rec/bin/distlint-rt" ]; then
          DISTLINT_RT_RECORDS=64 timeout 60 "$rec/bin/distlint-rt" run --nproc 2 --timeout 3 \
            --max-time 20 --out "$t/run" -- "$prog" >/dev/null 2>&1 || true
          mv "$t"/run/*.trace "$t"/ 2>/dev/null || true; rm -rf "$t/run"
        fi
      fi
      echo "$t" ;;
    *) echo "$root/tests/fuzz/seeds/$1" ;;
  esac
}

for h in "${harnesses[@]}"; do
  mkdir -p "$work/$h/corpus"
  extra=()
  case "$h" in
    analyze) extra=(-max_len=16384 -timeout=30 -rss_limit_mb=4096 -dict="$root/tests/fuzz/cpp.dict") ;;
    trace) extra=(-max_len=1200000 -timeout=30 -rss_limit_mb=4096) ;;
    *) extra=(-max_len=8192 -timeout=10) ;;
  esac
  crashers=(); [ -d "$root/tests/fuzz/crashers/$h" ] && crashers=("$root/tests/fuzz/crashers/$h")
  # With the shared ASan runtime (-shared-libsan), libFuzzer's libstdc++ is
  # linked ahead of it, and ASan wants to be loaded first: preload it.
  asan_rt=$(ldd "$build/fuzz/distlint_fuzz_$h" | awk '/libclang_rt\.asan/ {print $3}')
  (cd "$work/$h" && LD_PRELOAD="$asan_rt${LD_PRELOAD:+:$LD_PRELOAD}" "$build/fuzz/distlint_fuzz_$h" -max_total_time="$seconds" -print_final_stats=1 \
     "${extra[@]}" "$@" corpus $(seed_dirs "$h") "${crashers[@]}" 2>&1 | tee "$work/$h/fuzz.log" | tail -25)
done
