#!/usr/bin/env python3
"""The LibTorch stage of distlint's tests (issue 6): real headers, Gloo runs.

Subcommands (each prints one line per case and a closing
"N passed, N failed, N skipped" line; exit 0 = all passed, 77 = skipped
as a whole, with the reason printed, 1 = failures):

  headers --libtorch 1.13   every LibTorch testdata program written against
                            1.13 is analyzed against Debian's real headers and
                            must give exactly its inline `// expect:` findings.
  headers --libtorch 2.x    the same for the 2.x programs against Debian
                            trixie's libtorch-dev 2.6 headers, fetched with
                            scripts/torch-fetch-2x.sh (skipped with the reason
                            when they cannot be had).
  gloo                      every LibTorch testdata program labelled
                            `// run: gloo buggy|clean` is built against Debian's
                            LibTorch and run as 2 ranks on loopback.

DISTLINT_HEAVY=1 runs everything; the default CI run (30 minutes on 2 cores)
takes samples where the stage repeats itself: one program per release alone
without sharing (all with DISTLINT_HEAVY=1), one in HEADERS_113_EVERY of the
programs on the 1.13 headers, on the 2.x headers only the programs written
for 2.x alone, and one in GLOO_EVERY of the Gloo programs.
  example                   builds examples/ with CMake, checks distlint's
                            findings on it, runs both trainers with 2 ranks.

Testdata conventions read here (see /testdata): `// expect: rule[, rule]`,
`// expect@+N: rule`, `// expect-note: text`, `// distlint-args: flags`,
`// run: gloo buggy|clean`, and `// libtorch: 1.13[, 2.x]` naming the LibTorch
releases a program is written against (default: 2.x when its distlint-args
select the project's 2.x declarations, else 1.13).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The expectation syntax has one parser: the testdata harness's.
sys.path.insert(0, str(REPO / "tests" / "testdata_harness"))
import harness  # noqa: E402
SUPPORT = REPO / "tests" / "torch" / "support"
TESTDATA = REPO / "testdata"
SKIP = 77

TORCH_API_INCLUDE = Path("/usr/include/torch/csrc/api/include")
TORCH_C10D_INCLUDE = Path("/usr/include/torch/csrc/distributed/c10d")
CUDA_INCLUDE = Path("/usr/local/cuda/include")
# What find_package(Torch) gives a Debian build (Caffe2Targets.cmake's
# INTERFACE_COMPILE_DEFINITIONS), plus the NCCL backend, whose headers parse
# with the CUDA/NCCL headers of the machine image and the generated header
# from tests/torch/support.
TORCH_DEFINES = ["-DUSE_DISTRIBUTED", "-DUSE_C10D_GLOO", "-DUSE_RPC",
                 "-DUSE_TENSORPIPE"]
NCCL_DEFINES = ["-DUSE_C10D_NCCL"]

GLOO_TIMEOUT = re.compile(
    r"Timed out waiting \d+ms for (?:send|recv) operation to complete|"
    r"Application timeout caused pair closure")
# Gloo's check that a message fits the buffer of the collective it arrived
# for: the two ranks are in different collectives (a divergence that Gloo
# catches before the timeout, e.g. an all-reduce of the loss paired with
# another rank's gradient all-reduce).
GLOO_MISMATCH = re.compile(r"op\.preamble\.length <= op\.nbytes")
ORDER_LINE = re.compile(r"epoch\s+(\d+)\s+order:\s*(.*?)\s*$")


def log(msg=""):
    print(msg, flush=True)


# --------------------------------------------------------------------------
# Testdata programs
# --------------------------------------------------------------------------

class Program:
    RUN = re.compile(r"//\s*run:\s*(\S+)\s*(.*?)\s*$")
    LIBTORCH = re.compile(r"//\s*libtorch:\s*(.*?)\s*$")
    USES_TORCH = re.compile(r"^\s*#\s*include\s*<(torch|c10|ATen)/", re.M)

    def __init__(self, path):
        self.path = Path(path)
        self.rel = self.path.relative_to(REPO).as_posix()
        self.text = self.path.read_text(errors="replace")
        parsed = harness.parse(str(self.path))
        self.problems = parsed.problems
        self.expected = sorted(parsed.findings.elements())  # (line, rule, severity)
        self.notes = [(line, text) for line, text, _ in parsed.notes]
        self.args = parsed.args
        self.run_kind, self.run_label = None, None
        # `// run: gloo clean ranks=3`: a program whose roles need more
        # than two ranks to all appear.
        self.world_size = 2
        versions = None
        for line in self.text.splitlines():
            m = self.RUN.search(line)
            if m and self.run_kind is None:
                self.run_kind = m.group(1)
                words = m.group(2).split()
                self.run_label = words[0] if words else ""
                for word in words[1:]:
                    if word.startswith("ranks=") and word[6:].isdigit():
                        self.world_size = int(word[6:])
            m = self.LIBTORCH.search(line)
            if m:
                versions = {v.strip() for v in m.group(1).split(",") if v.strip()}
        if versions is None:
            versions = {"2.x"} if "-DDISTLINT_TORCH_2X" in self.args else {"1.13"}
        self.versions = versions

    @property
    def uses_torch(self):
        return bool(self.USES_TORCH.search(self.text))

    @property
    def uses_cuda(self):
        return bool(re.search(r"#\s*include\s*<(c10/cuda/|ATen/cuda/|cuda|nccl|"
                              r"torch/csrc/distributed/c10d/ProcessGroupNCCL)",
                              self.text))


def torch_programs():
    programs = []
    for path in sorted(TESTDATA.rglob("*.cpp")):
        rel = path.relative_to(TESTDATA).parts
        # projects/: analyzed whole through their compile databases
        # (tests/projects); a file alone misses what other files define.
        if rel[0] in ("include", "driver", "projects"):
            continue
        program = Program(path)
        if program.uses_torch:
            programs.append(program)
    return programs


# --------------------------------------------------------------------------
# Real-header analysis
# --------------------------------------------------------------------------

def real_header_flags(version, torch2_include=None):
    flags = ["-std=c++17"]
    if version == "2.x":
        flags += ["-isystem", str(torch2_include),
                  "-isystem", str(torch2_include / "torch/csrc/api/include")]
    else:
        flags += ["-isystem", str(TORCH_API_INCLUDE)]
    flags += ["-isystem", str(SUPPORT)]
    if CUDA_INCLUDE.is_dir():
        flags += ["-isystem", str(CUDA_INCLUDE)] + NCCL_DEFINES
    return flags + TORCH_DEFINES


def compare_findings(program, report, errors):
    """Returns a list of problems (empty = exact match)."""
    problems = []
    main = str(program.path.resolve())
    got = []
    notes = []
    for finding in report.get("findings", []):
        if os.path.realpath(finding.get("file", "")) != main:
            problems.append("finding outside the program: %s:%s %s" % (
                finding.get("file"), finding.get("line"), finding.get("rule")))
            continue
        got.append((finding["line"], finding["rule"],
                    finding.get("severity", "warning")))
        for note in finding.get("notes", []):
            if os.path.realpath(note.get("file", "")) == main:
                notes.append((note["line"], note.get("message", "")))
    problems += program.problems
    for error in errors:
        problems.append("error: %s" % error)
    missing = list(program.expected)
    extra = []
    for item in got:
        if item in missing:
            missing.remove(item)
        else:
            extra.append(item)
    for line, rule, sev in sorted(missing):
        problems.append("missing %s (%s) at line %d" % (rule, sev, line))
    for line, rule, sev in sorted(extra):
        problems.append("unexpected %s (%s) at line %d" % (rule, sev, line))
    for line, text in program.notes:
        if not any(l == line and text in m for l, m in notes):
            problems.append("missing note at line %d containing '%s'" % (line, text))
    return problems


def run_distlint(distlint, paths, flags, extra=()):
    """One distlint run over paths (--no-cache: the stage measures analysis);
    returns (report, stderr, a problem line or None)."""
    cmd = [distlint, "--format=json", "--quiet", "--no-cache"] + list(extra)
    cmd += [str(p) for p in paths] + ["--"] + flags
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return {"findings": [], "errors": []}, proc.stderr, (
            "distlint exited %d without JSON output: %s" % (
                proc.returncode, (proc.stderr.strip().splitlines() or ["?"])[-1]))
    failing = [f for f in report.get("findings", [])
               if f.get("severity", "warning") != "note"]
    want = 2 if report.get("errors") else (1 if failing else 0)
    problem = None
    if proc.returncode != want:
        problem = "exit status %d, expected %d" % (proc.returncode, want)
    return report, proc.stderr, problem


def part_of(program, report):
    """The report's findings and errors of this program's own file."""
    main = os.path.realpath(program.path)
    return {"findings": [f for f in report.get("findings", [])
                         if os.path.realpath(f.get("file", "")) == main],
            "errors": ["%s: %s" % (e.get("file"), e.get("message"))
                       for e in report.get("errors", [])
                       if os.path.realpath(e.get("file", "")) == main]}


def unshared_sample(programs, count):
    """A representative subset for the run without sharing: the programs
    spread evenly over the sorted list (so every rule directory and both
    clean and buggy programs tend to be in), at most count."""
    if count <= 0 or not programs:
        return []
    ordered = sorted(programs, key=lambda p: p.rel)
    step = len(ordered) / min(count, len(ordered))
    return [ordered[int(i * step)] for i in range(min(count, len(ordered)))]


def heavy():
    """DISTLINT_HEAVY=1 (scripts/test.sh) runs every program in every
    subcommand; the default CI run takes the samples below, to stay inside
    its 30-minute budget on 2 cores."""
    return os.environ.get("DISTLINT_HEAVY", "0") == "1"


def every_nth(programs, n):
    """Every n-th program of the sorted list, starting with the first: spread
    over the rule directories, the same programs on every run."""
    ordered = sorted(programs, key=lambda p: p.rel)
    return ordered if n <= 1 else ordered[::n]


# The default run builds and runs every GLOO_EVERY-th program labelled
# `// run: gloo` (both the Gloo proofs and runtime.torch.gloo take the same
# ones); DISTLINT_HEAVY=1 runs them all.
GLOO_EVERY = 4

# The default run analyzes every HEADERS_113_EVERY-th program on the real
# 1.13 headers; DISTLINT_HEAVY=1 all of them.
HEADERS_113_EVERY = 6


def gloo_programs(filter_re=None):
    programs = [p for p in torch_programs()
                if p.run_kind == "gloo" and "1.13" in p.versions]
    if filter_re:
        return [p for p in programs if re.search(filter_re, p.rel)]
    if heavy():
        return programs
    sample = every_nth(programs, GLOO_EVERY)
    log("default run: %d of the %d programs labelled for Gloo, one in %d "
        "(DISTLINT_HEAVY=1: all)" % (len(sample), len(programs), GLOO_EVERY))
    return sample


def fetch_torch2(work):
    script = REPO / "scripts" / "torch-fetch-2x.sh"
    proc = subprocess.run(["bash", str(script), str(work / "libtorch-2.x")],
                          capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        reason = lines[-1] if lines else proc.stderr.strip()
        return None, reason
    return Path(lines[-1]), lines[0]


def cmd_headers(args):
    """Issue 6 + 14: the programs against real LibTorch headers, one distlint
    run per flag set with preamble sharing on (the default: the programs
    parse on shared precompiled preambles of their leading includes); then a
    sample of them alone with --no-preamble-sharing, which must report the
    same findings (rule, place, message, notes, fingerprint)."""
    version = args.libtorch
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    if version == "2.x":
        include, info = fetch_torch2(work)
        if include is None:
            log("SKIPPED: LibTorch 2.x headers unavailable: %s" % info)
            return SKIP
        log("LibTorch 2.x headers: %s (%s)" % (include, info))
    else:
        include = None
        if not TORCH_API_INCLUDE.is_dir():
            log("SKIPPED: Debian's libtorch-dev is not installed "
                "(run scripts/setup.sh)")
            return SKIP
    programs = [p for p in torch_programs() if version in p.versions]
    if args.filter:
        programs = [p for p in programs if re.search(args.filter, p.rel)]
    elif version == "2.x" and not heavy():
        # The programs written for both releases are analyzed on the 1.13
        # headers in every run; on the 2.x headers in the heavy run (a sample
        # of them would parse on as many preambles as programs).
        both = [p for p in programs if "1.13" in p.versions]
        programs = [p for p in programs if "1.13" not in p.versions]
        log("default run: the %d programs written for 2.x only; the %d written for "
            "both releases with DISTLINT_HEAVY=1" % (len(programs), len(both)))
    elif version == "1.13" and not heavy():
        # Every program is checked on the stub headers by testdata/*; on the
        # real ones the default run takes a spread sample.
        sample = every_nth(programs, HEADERS_113_EVERY)
        log("default run: %d of the %d programs on the 1.13 headers, one in %d "
            "(DISTLINT_HEAVY=1: all)" % (len(sample), len(programs), HEADERS_113_EVERY))
        programs = sample
    skipped = []
    if not CUDA_INCLUDE.is_dir():
        skipped = [p for p in programs if p.uses_cuda]
        programs = [p for p in programs if not p.uses_cuda]
    passed = failed = shared = known = 0
    gaps = harness.known_gaps(str(REPO))
    start = time.time()
    groups = {}
    for program in programs:
        groups.setdefault(tuple(program.args), []).append(program)
    parts = {}
    for program_args, group in sorted(groups.items()):
        flags = real_header_flags(version, include) + list(program_args)
        t0 = time.time()
        report, stderr, problem = run_distlint(
            args.distlint, [p.path for p in group], flags,
            ["--verbose", "-j", str(args.jobs)])
        users = sum("shares preamble" in l for l in stderr.splitlines())
        shared += users
        log("%d program(s) with flags %s: %.0f s, %d parsed on a shared preamble" % (
            len(group), " ".join(program_args) or "(default)", time.time() - t0, users))
        mains = {os.path.realpath(p.path) for p in group}
        for finding in report.get("findings", []):
            if os.path.realpath(finding.get("file", "")) not in mains:
                failed += 1
                log("FAIL: finding outside the programs: %s:%s %s" % (
                    finding.get("file"), finding.get("line"), finding.get("rule")))
        for program in group:
            part = part_of(program, report)
            parts[program.rel] = part
            problems = compare_findings(program, part, part["errors"] +
                                        ([problem] if problem else []))
            if os.path.realpath(program.path) in gaps:
                if problems and not part["errors"]:
                    known += 1
                    log("gap  %s (testdata/KNOWN_GAPS.txt; still %s)" % (
                        program.rel, problems[0]))
                else:
                    failed += 1
                    log("FAIL %s: a known gap %s" % (program.rel, (
                        "that does not parse: " + problems[0]) if problems else
                        "that passes now: remove it from testdata/KNOWN_GAPS.txt"))
            elif problems:
                failed += 1
                log("FAIL %s (LibTorch %s headers)" % (program.rel, version))
                for p in problems:
                    log("    " + p)
            else:
                passed += 1
                log("ok   %s (%d findings)" % (program.rel, len(program.expected)))
    shared_seconds = time.time() - start
    log("analyzed %d programs against LibTorch %s headers on shared preambles in "
        "%.0f s; %d parsed on a shared preamble" % (
            len(programs), version, shared_seconds, shared))
    if programs and not shared:
        failed += 1
        log("FAIL: no program was parsed on a shared preamble")

    # The same programs without sharing: a sample (each parses all of
    # LibTorch's headers itself, ~4x the time of a program on the preamble).
    count = args.unshared_sample
    if count is None:
        count = len(programs) if heavy() else 1
    sample = unshared_sample(programs, count)
    t0 = time.time()

    def alone(program):
        flags = real_header_flags(version, include) + program.args
        report, _, problem = run_distlint(args.distlint, [program.path], flags,
                                          ["--no-preamble-sharing", "-j", "1"])
        return program, part_of(program, report), problem

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for program, part, problem in pool.map(alone, sample):
            with_sharing = parts[program.rel]
            same = (sorted(json.dumps(f, sort_keys=True) for f in part["findings"]) ==
                    sorted(json.dumps(f, sort_keys=True)
                           for f in with_sharing["findings"]) and
                    part["errors"] == with_sharing["errors"] and not problem)
            if same:
                log("same %s without sharing (%d findings)" % (
                    program.rel, len(part["findings"])))
            else:
                failed += 1
                log("FAIL %s: without sharing the report differs%s:\n    without: %s\n"
                    "    with:    %s" % (program.rel, " (%s)" % problem if problem else "",
                                         json.dumps(part), json.dumps(with_sharing)))
    log("compared %d of %d programs without sharing in %.0f s" % (
        len(sample), len(programs), time.time() - t0))
    for program in skipped:
        log("skip %s: %s missing (CUDA/NCCL headers)" % (program.rel, CUDA_INCLUDE))
    log("LibTorch %s stage: %.0f s wall (%.0f s on shared preambles, %.0f s for the "
        "sample without)" % (version, time.time() - start, shared_seconds,
                             time.time() - t0))
    log("%d passed, %d failed, %d skipped, %d known gaps" % (
        passed, failed, len(skipped), known))
    return 1 if failed or not passed else 0


# --------------------------------------------------------------------------
# Building LibTorch programs (precompiled header, cached by content)
# --------------------------------------------------------------------------

def sha(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else str(part).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


class Builder:
    """Builds small LibTorch programs with clang++ against Debian's LibTorch.
    Parsing <torch/torch.h> dominates, so one precompiled header (with its
    templates instantiated) is shared by all programs, and every binary is
    cached under the work dir by a hash of its source and flags."""

    def __init__(self, work, compiler="clang++-19"):
        self.work = Path(work).resolve()
        self.compiler = shutil.which(compiler) or shutil.which("clang++")
        # Line tables: the runtime checker (tests/runtime/torch_e2e.py) runs
        # these same binaries and reports file:line.
        self.flags = ["-std=c++17", "-O0", "-gline-tables-only", "-w", "-isystem",
                      str(TORCH_API_INCLUDE)] + TORCH_DEFINES
        self.libs = ["-ltorch", "-ltorch_cpu", "-lc10", "-lpthread"]
        # LLD links against LibTorch's large shared libraries ~5x faster.
        if shutil.which("ld.lld"):
            self.libs.insert(0, "-fuse-ld=lld")
        self.pch = None

    def torch_version_key(self):
        version = Path("/usr/include/torch/csrc/api/include/torch/version.h")
        return version.read_bytes() if version.exists() else b""

    def build_pch(self):
        header = SUPPORT / "torch_pch.h"
        compiler_version = subprocess.run([self.compiler, "--version"],
                                          capture_output=True, text=True).stdout
        key = sha(header.read_bytes(), self.flags, self.torch_version_key(),
                  compiler_version)
        out = self.work / "pch" / ("torch_pch-%s.pch" % key)
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            for old in out.parent.glob("*.pch"):
                old.unlink()
            start = time.time()
            tmp = out.with_suffix(".tmp")
            cmd = [self.compiler] + self.flags + [
                "-Xclang", "-fpch-instantiate-templates", "-x", "c++-header",
                str(header), "-o", str(tmp)]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError("precompiling %s failed:\n%s" % (
                    header, proc.stderr[-3000:]))
            tmp.rename(out)
            log("precompiled header built in %.0f s" % (time.time() - start))
        self.pch = out
        self.pch_key = key

    def build(self, source, extra=()):
        """Returns (binary path, seconds spent, cached?) or raises with the
        compiler's message."""
        source = Path(source)
        cmd_flags = self.flags + list(extra)
        key = sha(source.read_bytes(), cmd_flags, self.pch_key, self.libs)
        out = self.work / "bin" / ("%s-%s" % (source.stem, key))
        if out.exists():
            return out, 0.0, True
        out.parent.mkdir(parents=True, exist_ok=True)
        start = time.time()
        tmp = out.with_name(out.name + ".tmp")
        cmd = [self.compiler] + cmd_flags + [
            "-include-pch", str(self.pch), "-include", str(SUPPORT / "torch_pch.h"),
            str(source), "-o", str(tmp)] + self.libs
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            errors = [l for l in proc.stderr.splitlines() if "error" in l]
            raise RuntimeError("\n".join(errors[:5]) or proc.stderr[-2000:])
        tmp.rename(out)
        return out, time.time() - start, False

    def keep_alive_library(self):
        source = SUPPORT / "keep_peer_alive.c"
        out = self.work / ("keep_peer_alive-%s.so" % sha(source.read_bytes()))
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang-19")
            subprocess.run([cc, "-O1", "-shared", "-fPIC", str(source), "-o",
                            str(out), "-ldl"], check=True)
        return out


# --------------------------------------------------------------------------
# Running 2 ranks on loopback
# --------------------------------------------------------------------------

def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RankResult:
    def __init__(self, rank, code, output, killed):
        self.rank, self.code, self.output, self.killed = rank, code, output, killed

    @property
    def timed_out(self):
        return bool(GLOO_TIMEOUT.search(self.output))

    @property
    def mismatched(self):
        return bool(GLOO_MISMATCH.search(self.output))


def run_ranks(argv, keep_alive, timeout_ms, world_size=2, deadline_s=90,
              extra_env=None):
    """Starts world_size ranks, waits for them; once one rank has failed the
    others get a short grace period and are then stopped. Returns the
    RankResults and the elapsed seconds."""
    tmp = Path(tempfile.mkdtemp(prefix="distlint-gloo-"))
    try:
        (tmp / "alive").mkdir()
        env = dict(os.environ)
        env.update({
            "WORLD_SIZE": str(world_size),
            "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": str(free_port()),
            "DISTLINT_STORE_FILE": str(tmp / "store"),
            "DISTLINT_TEST_TIMEOUT_MS": str(timeout_ms),
            "DISTLINT_KEEP_ALIVE_DIR": str(tmp / "alive"),
            "DISTLINT_KEEP_ALIVE_MS": str(4 * timeout_ms + 5000),
            "LD_PRELOAD": str(keep_alive),
            "OMP_NUM_THREADS": "1",
        })
        env.update(extra_env or {})
        argv = [str(a).replace("{tmp}", str(tmp)) for a in argv]
        procs, outputs = [], []
        for rank in range(world_size):
            out = open(tmp / ("rank%d.log" % rank), "w+")
            outputs.append(out)
            rank_env = dict(env, RANK=str(rank), LOCAL_RANK=str(rank))
            procs.append(subprocess.Popen(
                argv, env=rank_env, stdout=out,
                stderr=subprocess.STDOUT, cwd=tmp, start_new_session=True))
        start = time.time()
        killed = [False] * world_size
        first_failure = None
        while True:
            codes = [p.poll() for p in procs]
            if all(c is not None for c in codes):
                break
            now = time.time()
            if first_failure is None and any(c not in (None, 0) for c in codes):
                first_failure = now
            grace_over = first_failure is not None and now - first_failure > 2.0
            if grace_over or now - start > deadline_s:
                for i, p in enumerate(procs):
                    if p.poll() is None:
                        os.killpg(p.pid, signal.SIGKILL)
                        killed[i] = True
                for p in procs:
                    p.wait()
                break
            time.sleep(0.05)
        elapsed = time.time() - start
        results = []
        for rank, (p, out) in enumerate(zip(procs, outputs)):
            out.seek(0)
            results.append(RankResult(rank, p.returncode, out.read(), killed[rank]))
            out.close()
        return results, elapsed
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def epoch_orders(output):
    orders = {}
    for line in output.splitlines():
        m = ORDER_LINE.search(line)
        if m:
            orders[int(m.group(1))] = m.group(2)
    return orders


def judge(label, results):
    """Returns (ok, explanation) for a run labelled buggy or clean."""
    finished = all(r.code == 0 and not r.killed for r in results)
    timeouts = [r.rank for r in results if r.timed_out]
    orders = [epoch_orders(r.output) for r in results]
    if finished and all(orders) and all(len(o) >= 2 for o in orders):
        # A set_epoch program: judged by the order it prints each epoch.
        same = [len(set(o.values())) == 1 for o in orders]
        if label == "buggy":
            # The defect: a rank that repeats its order (set_epoch called
            # on some ranks only leaves the others repeating theirs).
            return any(same), ("rank %s saw the same order each epoch" % ",".join(
                str(r.rank) for r, s in zip(results, same) if s)
                               if any(same) else
                               "the order changed between epochs: %s" % orders)
        return not any(same), ("the order changed between epochs on every rank"
                               if not any(same) else
                               "some rank saw the same order each epoch: %s" % orders)
    mismatches = [r.rank for r in results if r.mismatched]
    if label == "buggy":
        if timeouts:
            return True, "Gloo timeout on rank %s" % ",".join(map(str, timeouts))
        if mismatches:
            return True, ("Gloo found mismatched collectives on rank %s" %
                          ",".join(map(str, mismatches)))
        if finished:
            return False, "all ranks finished (no hang)"
        return False, "no Gloo timeout; exit codes %s" % [
            "killed" if r.killed else r.code for r in results]
    if finished and not timeouts and not mismatches:
        return True, "all ranks finished"
    return False, "exit codes %s%s" % (
        ["killed" if r.killed else r.code for r in results],
        "; Gloo timeout on rank %s" % timeouts if timeouts else "")


def tail(text, lines=6):
    return "\n".join("      | " + l for l in text.strip().splitlines()[-lines:])


def cmd_gloo(args):
    if not TORCH_API_INCLUDE.is_dir() or not TORCH_C10D_INCLUDE.is_dir():
        log("SKIPPED: Debian's libtorch-dev is not installed (run scripts/setup.sh)")
        return SKIP
    if not Path("/usr/include/gloo").is_dir():
        log("SKIPPED: libgloo-dev is not installed (run scripts/setup.sh)")
        return SKIP
    work = Path(args.work).resolve() / "gloo"
    programs = gloo_programs(args.filter)
    bad_labels = [p for p in programs if p.run_label not in ("buggy", "clean")]
    builder = Builder(work)
    start = time.time()
    builder.build_pch()
    keep_alive = builder.keep_alive_library()

    binaries, failed = {}, 0
    compile_seconds = 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(builder.build, p.path): p for p in programs
                   if p not in bad_labels}
        for future in concurrent.futures.as_completed(futures):
            program = futures[future]
            try:
                binary, seconds, cached = future.result()
                binaries[program.path] = binary
                compile_seconds += seconds
            except RuntimeError as e:
                failed += 1
                log("FAIL %s: does not build against Debian's LibTorch:\n%s" % (
                    program.rel, tail(str(e), 5)))
    build_time = time.time() - start
    log("built %d programs in %.0f s (%.0f s of compiler time, rest cached)" % (
        len(binaries), build_time, compile_seconds))
    for program in bad_labels:
        failed += 1
        log("FAIL %s: run label must be 'gloo buggy' or 'gloo clean', not '%s'" % (
            program.rel, program.run_label))

    passed = 0
    run_start = time.time()

    def run_one(program):
        results, elapsed = run_ranks([binaries[program.path]], keep_alive,
                                     args.timeout_ms,
                                     world_size=program.world_size)
        if program.run_label == "clean" and not judge("clean", results)[0]:
            # A clean program may miss the short timeout on a loaded machine
            # (rendezvous included); a real hang fails the second run too.
            log("     %s: clean run failed, running it once more" % program.rel)
            results, elapsed = run_ranks([binaries[program.path]], keep_alive,
                                         args.timeout_ms,
                                         world_size=program.world_size)
        return program, results, elapsed

    runnable = [p for p in programs if p.path in binaries]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for program, results, elapsed in pool.map(run_one, runnable):
            ok, why = judge(program.run_label, results)
            if ok:
                passed += 1
                log("ok   %s: %s: %s (%.1f s)" % (program.rel, program.run_label,
                                                  why, elapsed))
            else:
                failed += 1
                log("FAIL %s: labelled %s but %s (%.1f s)" % (
                    program.rel, program.run_label, why, elapsed))
                for r in results:
                    log("    rank %d:\n%s" % (r.rank, tail(r.output)))
    log("ran %d programs in %.0f s; whole stage %.0f s" % (
        len(runnable), time.time() - run_start, time.time() - start))
    log("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed or not passed else 0


# --------------------------------------------------------------------------
# The example project
# --------------------------------------------------------------------------

def configure_examples(build, tidy=None, export_dir=None):
    """examples/ as a user builds it, plus minimal line tables (-g1, which
    GCC and Clang both take) so the runtime checker's runs of the same
    binaries (tests/runtime/torch_e2e.py) report file:line. tidy: the
    CMAKE_CXX_CLANG_TIDY command (issue 14: the lint inside the build)."""
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    extra = []
    if tidy:
        extra.append("-DCMAKE_CXX_CLANG_TIDY=" + ";".join(tidy))
    if export_dir:
        extra.append("-DCMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR=" + str(export_dir))
    return subprocess.run(["cmake", "-S", str(REPO / "examples"), "-B", str(build),
                           "-DCMAKE_CXX_FLAGS=-g1"] + generator + extra,
                          capture_output=True, text=True)


def build_examples(build, jobs, target=None):
    return subprocess.run(["cmake", "--build", str(build), "-j", str(jobs)] +
                          (["--target", target] if target else []),
                          capture_output=True, text=True)


BUILD_LOG_FINDING = re.compile(
    r"^(/[^:\s]+):(\d+):\d+: (?:warning|error): .*\[(distlint-[a-z-]+)")


def build_log_findings(text):
    """(file name, line, rule) of every distlint finding in a build log."""
    return {(os.path.basename(m.group(1)), int(m.group(2)), m.group(3))
            for m in map(BUILD_LOG_FINDING.match, text.splitlines()) if m}


def cmake_version():
    out = subprocess.run(["cmake", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def check_lint_in_build(check, work, tidy, fixes_dir, build_log, report, jobs):
    """The plugin's findings in the build log are exactly distlint's own on
    the same TUs; --warnings-as-errors fails the build."""
    in_log = build_log_findings(build_log)
    direct = {(os.path.basename(f["file"]), f["line"], f["rule"])
              for f in report.get("findings", [])}
    check(in_log and in_log == direct,
          "the build log carries the plugin's findings: exactly distlint's (%d)"
          % len(in_log), "only in the log: %s; only from distlint: %s" % (
              sorted(in_log - direct), sorted(direct - in_log)))
    check(not any(f.startswith("train_ddp_fixed") for f, _, _ in in_log),
          "none for the fixed trainer in the build log")
    if cmake_version() >= (3, 26):
        yamls = sorted(os.listdir(fixes_dir)) if fixes_dir.is_dir() else []
        text = "".join((fixes_dir / f).read_text() for f in yamls)
        check(len(yamls) == 2 and "DiagnosticName:  distlint-" in text,
              "CMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR holds one YAML per TU", str(yamls))
    else:
        log("skip CMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR: CMake %d.%d < 3.26 ignores it"
            % cmake_version())
    # One target is enough to fail the build.
    strict = work.parent / "examples-werror"
    proc = configure_examples(strict, tidy + ["--warnings-as-errors=distlint-*"])
    if proc.returncode == 0:
        proc = build_examples(strict, jobs, target="ddp_trainer")
    text = proc.stdout + proc.stderr
    check(proc.returncode != 0 and re.search(
        r"error: .*\[distlint-[a-z-]+,-warnings-as-errors\]", text) is not None,
        "with --warnings-as-errors=distlint-* the build fails, naming the finding",
        tail(text, 15))


def cmd_example(args):
    if not TORCH_API_INCLUDE.is_dir():
        log("SKIPPED: Debian's libtorch-dev is not installed (run scripts/setup.sh)")
        return SKIP
    work = Path(args.work).resolve() / "examples"
    passed = failed = 0

    def check(ok, what, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            log("ok   " + what)
        else:
            failed += 1
            log("FAIL " + what + (":\n" + detail if detail else ""))

    # Issue 14: the build lints too, with distlint's clang-tidy plugin
    # through CMAKE_CXX_CLANG_TIDY (and ..._EXPORT_FIXES_DIR, CMake >= 3.26).
    tidy = None
    if args.plugin and args.clang_tidy and shutil.which(args.clang_tidy):
        tidy = [shutil.which(args.clang_tidy), "-load=" + os.path.abspath(args.plugin),
                "-checks=-*,distlint-*"]
    else:
        log("note: no clang-tidy plugin given; the build does not lint")
    fixes_dir = work.parent / "examples-fixes"
    shutil.rmtree(fixes_dir, ignore_errors=True)
    start = time.time()
    proc = configure_examples(work, tidy, fixes_dir if tidy else None)
    check(proc.returncode == 0, "cmake configures examples/",
          tail(proc.stdout + proc.stderr, 15))
    if proc.returncode != 0:
        log("%d passed, %d failed, 0 skipped" % (passed, failed))
        return 1
    if tidy:
        # A build tree kept from an earlier run would lint nothing.
        for name in ("train_ddp.cpp", "train_ddp_fixed.cpp"):
            os.utime(REPO / "examples" / name)
    proc = build_examples(work, args.jobs)
    build_log = proc.stdout + proc.stderr
    log("example configured and built in %.0f s" % (time.time() - start))
    check(proc.returncode == 0, "examples/ builds" +
          (" with CMAKE_CXX_CLANG_TIDY (findings are warnings)" if tidy else ""),
          tail(build_log, 15))
    database = work / "compile_commands.json"
    check(database.exists(), "examples/ exports compile_commands.json")

    # Findings: exactly the annotated ones in the defective trainer, none in
    # the fixed one (what the README's first command shows).
    if args.distlint and database.exists():
        start = time.time()
        cmd = [args.distlint, "--format=json", "--no-cache", "-p", str(work), "-j",
               str(args.jobs), "--all"]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
        log("example analyzed in %.0f s" % (time.time() - start))
        try:
            report = json.loads(out.stdout)
        except ValueError:
            check(False, "distlint -p %s --all prints JSON" % work,
                  tail(out.stderr, 10))
            report = None
        if report is not None:
            check(not report.get("errors"), "example analyzed without errors",
                  json.dumps(report.get("errors"), indent=1)[:2000])
            for name in ("train_ddp.cpp", "train_ddp_fixed.cpp"):
                program = Program(REPO / "examples" / name)
                problems = compare_findings(program, {"findings": [
                    f for f in report.get("findings", [])
                    if os.path.realpath(f.get("file", "")) ==
                    str(program.path.resolve())]}, [])
                check(not problems, "findings on examples/%s are exactly its %d "
                      "`// expect:` lines" % (name, len(program.expected)),
                      "\n".join("    " + p for p in problems))
            others = [f for f in report.get("findings", [])
                      if Path(f.get("file", "")).name not in
                      ("train_ddp.cpp", "train_ddp_fixed.cpp")]
            check(not others, "no findings elsewhere in examples/",
                  json.dumps(others, indent=1)[:2000])
            if tidy:
                check_lint_in_build(check, work, tidy, fixes_dir, build_log,
                                    report, args.jobs)

    builder = Builder(Path(args.work) / "gloo")
    keep_alive = builder.keep_alive_library()
    for name, label in (("ddp_trainer_fixed", "clean"), ("ddp_trainer", "buggy")):
        binary = work / name
        if not binary.exists():
            check(False, "%s was built" % name)
            continue
        argv = [binary, "--epochs", "2", "--timeout-ms", str(args.timeout_ms),
                "--store", "{tmp}/store", "--checkpoint-dir", "{tmp}"]
        results, elapsed = run_ranks(argv, keep_alive, args.timeout_ms,
                                     extra_env={"MASTER_PORT": ""})
        ok, why = judge(label, results)
        if label == "clean":
            ok = ok and all("finished" in r.output for r in results)
        check(ok, "%s with 2 ranks: %s: %s (%.1f s)" % (name, label, why, elapsed),
              "\n".join("    rank %d:\n%s" % (r.rank, tail(r.output))
                        for r in results))
    log("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


# --------------------------------------------------------------------------
# The NCCL/CUDA headers of Debian's CPU-only package
# --------------------------------------------------------------------------

NCCL_TU = """#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
int main() {
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = std::chrono::seconds(60);
  c10::cuda::device_synchronize();
  return static_cast<int>(c10::cuda::device_count());
}
"""


def cmd_nccl_headers(args):
    """Debian's CPU-only libtorch-dev lacks c10/cuda/impl/cuda_cmake_macros.h;
    with the stand-in from tests/torch/support, ProcessGroupNCCL.hpp and
    c10/cuda/CUDAFunctions.h parse against the image's CUDA + NCCL headers."""
    if not TORCH_API_INCLUDE.is_dir():
        log("SKIPPED: Debian's libtorch-dev is not installed (run scripts/setup.sh)")
        return SKIP
    if not (CUDA_INCLUDE / "cuda_runtime_api.h").exists() or \
            not (CUDA_INCLUDE / "nccl.h").exists():
        log("SKIPPED: no CUDA/NCCL headers in %s" % CUDA_INCLUDE)
        return SKIP
    compiler = shutil.which("clang++-19") or shutil.which("clang++")
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    source = work / "nccl_headers.cpp"
    source.write_text(NCCL_TU)
    base = [compiler, "-std=c++17", "-isystem", str(TORCH_API_INCLUDE),
            "-isystem", str(CUDA_INCLUDE)] + TORCH_DEFINES + NCCL_DEFINES
    passed = failed = 0
    start = time.time()
    proc = subprocess.run(base + ["-E", "-o", os.devnull, str(source)],
                          capture_output=True, text=True)
    if proc.returncode != 0 and "cuda_cmake_macros.h" in proc.stderr:
        passed += 1
        log("ok   without tests/torch/support the package lacks "
            "c10/cuda/impl/cuda_cmake_macros.h")
    elif proc.returncode == 0 and \
            Path("/usr/include/c10/cuda/impl/cuda_cmake_macros.h").exists():
        passed += 1
        log("ok   the installed package ships cuda_cmake_macros.h itself")
    else:
        failed += 1
        log("FAIL preprocessing without the stand-in: exit %d\n%s" % (
            proc.returncode, tail(proc.stderr)))
    proc = subprocess.run(base + ["-isystem", str(SUPPORT), "-fsyntax-only",
                                  str(source)], capture_output=True, text=True)
    if proc.returncode == 0:
        passed += 1
        log("ok   ProcessGroupNCCL.hpp, c10/cuda/CUDAFunctions.h and CUDAStream.h "
            "parse with the stand-in (%.0f s)" % (time.time() - start))
    else:
        failed += 1
        log("FAIL ProcessGroupNCCL.hpp does not parse with the stand-in:\n%s" %
            tail(proc.stderr, 10))
    log("%d passed, %d failed, 0 skipped" % (passed, failed))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--work", required=True,
                        help="cache directory (inside the build tree)")
    common.add_argument("--jobs", type=int, default=2)
    common.add_argument("--filter", help="regex on testdata paths")
    common.add_argument("--timeout-ms", type=int, default=3000,
                        help="process-group timeout given to the programs")
    headers = sub.add_parser("headers", parents=[common])
    headers.add_argument("--libtorch", choices=["1.13", "2.x"], required=True)
    headers.add_argument("--distlint", required=True)
    headers.add_argument("--unshared-sample", type=int,
                         help="programs also analyzed alone without preamble "
                              "sharing, compared with the shared run "
                              "(default: 1; all with DISTLINT_HEAVY=1)")
    sub.add_parser("gloo", parents=[common])
    example = sub.add_parser("example", parents=[common])
    example.add_argument("--distlint")
    example.add_argument("--plugin", help="libdistlint-tidy.so: lint inside the build")
    example.add_argument("--clang-tidy", default="clang-tidy-19")
    sub.add_parser("nccl-headers", parents=[common])
    args = parser.parse_args()
    return {"headers": cmd_headers, "gloo": cmd_gloo, "example": cmd_example,
            "nccl-headers": cmd_nccl_headers}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
