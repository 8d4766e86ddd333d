#!/usr/bin/env bash
# distlint-rt on a real GPU (one H200; NCCL allows one rank per GPU, so the
# world size is 1). Prepared for the lent device machine; run from the
# repository root:
#
#   bash runtime-check/gpu/run_h200.sh            # everything, ~5 minutes
#
# Steps (each with a time limit; results land in $OUT or /tmp/distlint-rt-gpu):
#   1. build libdistlint-rt.so and distlint-rt from runtime-check/ alone
#      (no LLVM needed; the report falls back to addr2line);
#   2. raw NCCL + CUDA runtime program (gpu/nccl_single.cpp) under the
#      preload: the trace must hold every ncclAllReduce at the program's
#      file:line, completed through CUDA events (real driver), and the sync
#      counts per call-site must equal what the program did;
#   3. LibTorch ProcessGroupNCCL program (gpu/torch_pg_nccl.cpp) built against
#      the machine's PyTorch C++ libraries: the trace must show the user's
#      file:line through LibTorch's frames, and the device syncs it made;
#      the ProcessGroupNCCL path (issue 12, NOT YET RUN ON A GPU: no device
#      was lent to the session that wrote it): libtorch_cuda.so's vtable
#      slots for ProcessGroupNCCL::allreduce are checked to be symbolic
#      relocations (interposable), and the trace must hold every
#      ProcessGroup::allreduce at the program's line with count 1024 and
#      float32 (read by libdistlint-rt-torch.so, built here against the
#      wheel's headers), completed through Work::wait — whether NCCL is
#      linked statically into libtorch_cuda.so or not;
#   4. Python DDP on NCCL (gpu/python_ddp_nccl.py, issue 27, NOT YET RUN ON A
#      GPU) under `distlint-rt run --nproc 1`: the explicit all_reduce at its
#      Python line with count 1024/float32, DDP's gradient all-reduce from
#      the CUDA autograd thread attributed to the loss.backward() line, and
#      torch.cuda.synchronize()/.item() counted once per step by the startup
#      hook;
#   5. overhead: CPU time per ncclAllReduce call with and without the
#      recorder, against real NCCL.
# Prints one PASS/FAIL/SKIP line per check; exits 1 on a FAIL (at once when
# no GPU is visible), 3 when all passed but the ProcessGroupNCCL path could
# not be checked (no PyTorch with CUDA: set LIBTORCH=<unpacked LibTorch>).
set -uo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-/tmp/distlint-rt-gpu}"
mkdir -p "$out"
work="$(mktemp -d /tmp/dlrt-gpu-XXXXXX)"
trap 'rm -rf "$work"' EXIT
log="$out/run_h200.log"
: > "$log"
failures=0
say() { echo "$*" | tee -a "$log"; }
pass() { say "PASS $*"; }
fail() { say "FAIL $*"; failures=$((failures + 1)); }
skip() { say "SKIP $*"; }
limit() { local s="$1"; shift; timeout --kill-after=10 "$s" "$@"; }

say "== distlint-rt GPU check on $(hostname) at $(date -u +%FT%TZ)"
# Every step runs on the GPU: without one, say so and stop before building.
if ! gpus=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1) ||
   [ -z "$gpus" ]; then
  fail "no GPU visible (nvidia-smi: ${gpus:-not found}); run this on the lent device machine"
  exit 1
fi
say "$gpus"

# ---- Where CUDA, NCCL and PyTorch live --------------------------------------------------------
# PyTorch's C++ libraries: LIBTORCH=<unpacked LibTorch zip> (include/, lib/),
# else the torch package of python3.
python=$(command -v python3 || true)
torch_dir=""
torch_from=""
if [ -n "${LIBTORCH:-}" ]; then
  torch_dir="$LIBTORCH" torch_from="LIBTORCH"
elif [ -n "$python" ]; then
  torch_dir=$("$python" -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null || true)
  torch_from="python3's torch"
fi
site=""
[ -n "$torch_dir" ] && site="$(dirname "$torch_dir")"
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
inc_dirs=()
lib_dirs=()
for d in "$cuda_home/include" "$site/nvidia/nccl/include" "$site/nvidia/cuda_runtime/include"; do
  [ -d "$d" ] && inc_dirs+=("-I$d")
done
for d in "$cuda_home/lib64" "$cuda_home/lib" "$site/nvidia/nccl/lib" "$site/nvidia/cuda_runtime/lib"; do
  [ -d "$d" ] && lib_dirs+=("-L$d" "-Wl,-rpath,$d")
done
say "torch: ${torch_dir:-none}; CUDA: $cuda_home"

abi=1
if [ "$torch_from" = LIBTORCH ]; then
  # The pre-C++11-ABI LibTorch builds export no std::__cxx11 symbols.
  nm -D --defined-only "$torch_dir/lib/libc10.so" 2>/dev/null | grep -q __cxx11 || abi=0
elif [ -n "$torch_dir" ]; then
  abi=$("$python" -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))' 2>/dev/null || echo 1)
fi

# ---- 1. Build the recorder ---------------------------------------------------------------------
# With PyTorch present, libdistlint-rt-torch.so is built against its headers.
build="$work/build"
torch_cmake=()
[ -n "$torch_dir" ] && torch_cmake=(-DDLRT_TORCH_INCLUDE_HINT="$torch_dir/include"
  "-DDLRT_TORCH_DEFINES=_GLIBCXX_USE_CXX11_ABI=$abi;USE_C10D_NCCL;USE_DISTRIBUTED")
if limit 300 cmake -S "$repo/runtime-check" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
     "${torch_cmake[@]}" >>"$log" 2>&1 &&
   limit 300 cmake --build "$build" -j "$(nproc)" >>"$log" 2>&1 &&
   [ -f "$build/lib/libdistlint-rt.so" ]; then
  pass "build: $build/lib/libdistlint-rt.so"
else
  fail "build of runtime-check (see $log)"
  exit 1
fi
preload="$build/lib/libdistlint-rt.so"
rt="$build/bin/distlint-rt"
have_rt=1
[ -x "$rt" ] || { have_rt=0; skip "distlint-rt tool (nlohmann_json missing): checks read the raw dump only"; }

report_json() { # $1 = trace dir; prints the JSON report
  limit 120 "$rt" report "$1" --format json
}

# ---- 2. Raw NCCL --------------------------------------------------------------------------------
raw="$work/nccl_single"
if limit 300 g++ -std=c++17 -O2 -g "${inc_dirs[@]}" "$repo/runtime-check/gpu/nccl_single.cpp" \
     -o "$raw" "${lib_dirs[@]}" -lnccl -lcudart >>"$log" 2>&1; then
  pass "raw NCCL program built"
  traces="$out/raw-traces"
  rm -rf "$traces"
  steps=50
  if limit 300 env LD_PRELOAD="$preload" DISTLINT_RT_DIR="$traces" DISTLINT_RT_TIMEOUT=60 \
       "$raw" check "$steps" > "$out/raw.out" 2>>"$log"; then
    pass "raw NCCL program ran under the preload"
    cat "$out/raw.out" >> "$log"
    if [ "$have_rt" = 1 ]; then
      report_json "$traces" > "$out/raw-report.json" 2>>"$log"
      "$python" - "$out/raw-report.json" "$out/raw.out" "$repo/runtime-check/gpu/nccl_single.cpp" <<'PY' | tee -a "$log"
import json, os, sys
report = json.load(open(sys.argv[1]))
facts = dict(line.split() for line in open(sys.argv[2]))
src = os.path.realpath(sys.argv[3])
steps = int(facts["steps"])
def site(op, line):
    for s in report["sites"]:
        if s["op"] == op and s["line"] == int(line) and os.path.realpath(s["file"]) == src:
            return s
    return None
def sync(op, line):
    return sum(s["count"] for s in report["syncs"]
               if s["op"] == op and s.get("line") == int(line)
               and os.path.realpath(s.get("file", "")) == src)
s = site("ncclAllReduce", facts["allreduce_line"])
print(("PASS" if s and s["counts"].get("0") == steps else "FAIL") +
      f" raw: {steps} ncclAllReduce at nccl_single.cpp:{facts['allreduce_line']} (trace: {s and s['counts']})")
print(("PASS" if s and not s["completion_not_observed"] else "FAIL") +
      f" raw: completion observed through CUDA events (not observed: {s and s['completion_not_observed']})")
n = sync("cudaStreamSynchronize", facts["sync_line"])
print(("PASS" if n == steps else "FAIL") + f" raw: cudaStreamSynchronize count {n}, program made {steps}")
n = sync("cudaMemcpy", facts["copy_line"])
print(("PASS" if n == 1 else "FAIL") + f" raw: cudaMemcpy count {n}, program made 1")
print(("PASS" if report["clean"] else "FAIL") + " raw: report clean")
PY
    fi
  else
    fail "raw NCCL program under the preload (see $log)"
  fi
else
  fail "raw NCCL program did not build (nccl.h / libnccl not found?)"
fi

# ---- 3. LibTorch ProcessGroupNCCL ---------------------------------------------------------------
torch_cuda=0
if [ "$torch_from" = LIBTORCH ]; then
  [ -f "$torch_dir/lib/libtorch_cuda.so" ] && torch_cuda=1
elif [ -n "$torch_dir" ] &&
     "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>>"$log"; then
  torch_cuda=1
fi
pg_nccl_checked=0
if [ "$torch_cuda" = 1 ]; then
  pg_nccl_checked=1
  torch_bin="$work/torch_pg_nccl"
  # The c10d hooks need the vtable slots to be filled through symbols.
  slots=$(readelf -rW "$torch_dir/lib/libtorch_cuda.so" 2>/dev/null |
          grep -c 'R_X86_64_64.*_ZN4c10d16ProcessGroupNCCL9allreduceE' || true)
  if [ "${slots:-0}" -gt 0 ]; then
    pass "pg-nccl: ProcessGroupNCCL::allreduce vtable slot is a symbolic relocation ($slots)"
  else
    fail "pg-nccl: no symbolic relocation for ProcessGroupNCCL::allreduce (built with -Bsymbolic?)"
  fi
  [ -f "$build/lib/libdistlint-rt-torch.so" ] && pass "pg-nccl: libdistlint-rt-torch.so built" ||
    fail "pg-nccl: libdistlint-rt-torch.so not built against $torch_dir/include (see $log)"
  if ldd "$torch_dir/lib/libtorch_cuda.so" 2>/dev/null | grep -q "libnccl"; then
    say "libtorch_cuda.so loads NCCL dynamically: interposable"
  else
    say "note: libtorch_cuda.so does not list libnccl (NCCL linked statically?): ncclAllReduce cannot be interposed"
  fi
  # ProcessGroupNCCL.hpp is empty unless USE_C10D_NCCL is defined.
  if limit 420 g++ -std=c++17 -O1 -g -D_GLIBCXX_USE_CXX11_ABI="$abi" -DUSE_C10D_NCCL -DUSE_DISTRIBUTED \
       -I"$torch_dir/include" -I"$torch_dir/include/torch/csrc/api/include" "${inc_dirs[@]}" \
       "$repo/runtime-check/gpu/torch_pg_nccl.cpp" -o "$torch_bin" \
       -L"$torch_dir/lib" -Wl,-rpath,"$torch_dir/lib" "${lib_dirs[@]}" \
       -Wl,--no-as-needed -ltorch -ltorch_cuda -ltorch_cpu -lc10_cuda -lc10 -Wl,--as-needed \
       -lcudart >>"$log" 2>&1; then
    pass "LibTorch ProcessGroupNCCL program built"
    traces="$out/torch-traces"
    rm -rf "$traces" /tmp/distlint-rt-gpu-store
    if limit 300 env LD_PRELOAD="$preload" DISTLINT_RT_DIR="$traces" DISTLINT_RT_TIMEOUT=120 \
         "$torch_bin" 20 /tmp/distlint-rt-gpu-store > "$out/torch.out" 2>>"$log"; then
      pass "LibTorch program ran under the preload"
      cat "$out/torch.out" >> "$log"
      if [ "$have_rt" = 1 ]; then
        report_json "$traces" > "$out/torch-report.json" 2>>"$log"
        "$python" - "$out/torch-report.json" "$out/torch.out" "$repo/runtime-check/gpu/torch_pg_nccl.cpp" \
          "$rt" "$traces" <<'PY' | tee -a "$log"
import json, os, sys
report = json.load(open(sys.argv[1]))
facts = dict(line.split() for line in open(sys.argv[2]))
src = os.path.realpath(sys.argv[3])
steps = int(facts["steps"])
ours = [s for s in report["sites"] if os.path.realpath(s["file"]) == src]
# The process-group hook records the call (the NCCL call inside it is not
# recorded twice; with NCCL static in libtorch_cuda.so it is not visible).
ar = [s for s in ours if s["op"] == "ProcessGroup::allreduce"
      and s["line"] == int(facts["allreduce_line"])]
print(("PASS" if ar and ar[0]["counts"].get("0") == steps else "FAIL") +
      f" pg-nccl: {steps} ProcessGroup::allreduce attributed to torch_pg_nccl.cpp:{facts['allreduce_line']} "
      f"through LibTorch's frames (sites in the program: {[(s['op'], s['line'], s['counts']) for s in ours]})")
import re, subprocess, glob
dumps = "".join(subprocess.run([sys.argv[4], "dump", f], capture_output=True, text=True).stdout
                for f in glob.glob(os.path.join(sys.argv[5], "*.trace")))
recs = [l for l in dumps.splitlines() if " ProcessGroup::allreduce " in l]
done = [l for l in recs if int(re.search(r"state ([0-9a-f]+)", l).group(1), 16) & 2]
print(("PASS" if recs and len(done) == len(recs) else "FAIL") +
      f" pg-nccl: {len(done)} of {len(recs)} ProcessGroup::allreduce completed (Work::wait/isCompleted)")
print(("PASS" if recs and all(" count 1024 dt 6 " in l for l in recs) else "FAIL") +
      f" pg-nccl: count 1024 and float32 (c10 type 6) recorded ({recs[:1]})")
syncs = sum(s["count"] for s in report["syncs"] if s["op"] == "cudaDeviceSynchronize"
            and s.get("line") == int(facts["sync_line"])
            and os.path.realpath(s.get("file", "")) == src)
print(("PASS" if syncs == steps else "FAIL") +
      f" torch: cudaDeviceSynchronize at torch_pg_nccl.cpp:{facts['sync_line']}: {syncs}, program made {steps}")
print(("PASS" if report["clean"] else "FAIL") + " torch: report clean")
PY
      fi
    else
      fail "LibTorch program under the preload (see $log)"
    fi
  else
    fail "LibTorch program did not build against $torch_dir (see $log)"
  fi
else
  skip "no PyTorch with CUDA on this machine (${torch_dir:-no torch package}; set LIBTORCH=<unpacked LibTorch CUDA zip>): ProcessGroupNCCL path NOT checked"
fi

# ---- 4. Python DDP on NCCL ----------------------------------------------------------------------
if [ "$torch_cuda" = 1 ] && [ "$torch_from" != LIBTORCH ] && [ "$have_rt" = 1 ]; then
  py_prog="$repo/runtime-check/gpu/python_ddp_nccl.py"
  py_traces="$out/python-traces"
  rm -rf "$py_traces"
  if limit 300 "$rt" run --nproc 1 --timeout 120 --out "$py_traces" -- "$python" "$py_prog" 20 \
       > "$out/python.out" 2>>"$log"; then
    pass "Python DDP job ran under distlint-rt run"
    report_json "$py_traces" > "$out/python-report.json" 2>>"$log"
    "$python" - "$out/python-report.json" "$out/python.out" "$py_prog" "$rt" "$py_traces" <<'PY' | tee -a "$log"
import glob, json, os, re, subprocess, sys
report = json.load(open(sys.argv[1]))
steps = int(dict(l.split() for l in open(sys.argv[2]) if l.startswith("steps "))["steps"])
src = os.path.realpath(sys.argv[3])
lines = {m.group(1): n for n, l in enumerate(open(src), 1)
         for m in [re.search(r"# marker: (\w+)", l)] if m}
def site(op, line):
    return [s for s in report["sites"] if os.path.realpath(s["file"]) == src
            and s["line"] == line and s["op"] == op]
ar = site("ProcessGroup::allreduce", lines["allreduce"])
print(("PASS" if ar and ar[0]["counts"].get("0") == steps and "call" in ar[0].get("python", [])
       else "FAIL") + f" python: {steps} all_reduce at python_ddp_nccl.py:{lines['allreduce']} ({ar})")
grad = site("ProcessGroup::allreduce", lines["backward"])
print(("PASS" if grad and grad[0]["counts"].get("0", 0) >= steps
       and set(grad[0].get("python", [])) & {"backward", "backward-thread"} else "FAIL") +
      f" python: DDP gradient all-reduce attributed to loss.backward() at line {lines['backward']} ({grad})")
checks = report.get("python_checks", [])
for check, key in (("cuda-synchronize", "sync"), ("item", "item")):
    got = [c for c in checks if c["check"] == check and c.get("line") == lines[key]]
    print(("PASS" if got and got[0]["count"] == steps and got[0]["steps"] == steps else "FAIL") +
          f" python: {check} at line {lines[key]} once per step ({got})")
dumps = "".join(subprocess.run([sys.argv[4], "dump", f], capture_output=True, text=True).stdout
                for f in glob.glob(os.path.join(sys.argv[5], "*.trace")))
recs = [l for l in dumps.splitlines() if " ProcessGroup::allreduce " in l and " count 1024 dt 6 " in l]
print(("PASS" if len(recs) >= steps else "FAIL") +
      f" python: {len(recs)} ProcessGroup::allreduce with count 1024, float32 (the helper in Python)")
print(("PASS" if report["clean"] else "FAIL") + " python: report clean")
PY
  else
    fail "Python DDP job under distlint-rt run (see $log)"
  fi
else
  skip "Python DDP on NCCL: needs python3's torch with CUDA and the distlint-rt tool"
fi

# ---- 5. Overhead against real NCCL ----------------------------------------------------------------
if [ -x "$raw" ]; then
  best() { sort -n | head -1; }
  direct=$(for i in 1 2 3; do limit 120 "$raw" bench 20000 | awk '/ns_per_call/ {print $2}'; done | best)
  with=$(for i in 1 2 3; do limit 120 env LD_PRELOAD="$preload" DISTLINT_RT_DIR="$work/bench-traces" \
         "$raw" bench 20000 | awk '/ns_per_call/ {print $2}'; rm -rf "$work/bench-traces"; done | best)
  noev=$(for i in 1 2 3; do limit 120 env LD_PRELOAD="$preload" DISTLINT_RT_DIR="$work/bench-traces" \
         DISTLINT_RT_EVENTS=0 "$raw" bench 20000 | awk '/ns_per_call/ {print $2}'; rm -rf "$work/bench-traces"; done | best)
  if [ -n "$direct" ] && [ -n "$with" ]; then
    say "overhead: ncclAllReduce CPU time per call: real NCCL ${direct} ns; with the recorder ${with} ns" \
        "(+$(awk "BEGIN{print $with - $direct}") ns, events on); without CUDA events ${noev} ns" \
        "(+$(awk "BEGIN{print $noev - $direct}") ns); target 150 ns added"
    pass "overhead measured"
  else
    fail "overhead bench did not run"
  fi
fi

# The checks written by the Python snippets print their FAIL lines themselves.
failures=$(grep -c '^FAIL ' "$log" || true)
say "== $failures failure(s); log: $log"
[ "$failures" = 0 ] || exit 1
if [ "$pg_nccl_checked" = 0 ]; then
  say "INCOMPLETE: the ProcessGroupNCCL path was not checked (no PyTorch with CUDA); exit 3"
  exit 3
fi
