#!/usr/bin/env python3
"""Run proofs of the MPI testdata labels.

Every testdata program with a line `// run: mpi buggy` or `// run: mpi clean`
is built with mpicxx and run with `mpirun -np 2` (`ranks=N` on that line:
N) under a timeout:
  buggy -> must hang (time out) or end with a non-zero exit code;
  clean -> must exit 0 within the timeout.
A hanging job is killed with its whole process group. Cases run two at a time.
Without FILE arguments the default run proves one in RUNPROOF_EVERY programs of
each label (the 30-minute CI budget: a build and a run each); DISTLINT_HEAVY=1
proves them all. Every program was proven when it was written (FILE arguments
always run).

  runproof.py --repo REPO [--work DIR] [--timeout S] [--jobs N] [FILE...]

Exit: 0 all labels proven, 1 some label wrong, 77 MPI not installed.
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUN_LINE = re.compile(r"^\s*//\s*run:\s*mpi\s+(buggy|clean)\b", re.M)
# `// run: mpi buggy ranks=3`: a program that needs more processes than the
# default (a bug among the members of a sub-communicator of two or more).
RANKS_IN_RUN_LINE = re.compile(
    r"^\s*//\s*run:\s*mpi\s+(?:buggy|clean)\b.*?\branks=(\d+)", re.M)
# Include paths, macros and -fopenmp of `// distlint-args:` apply to the build too
# (relative paths are relative to the program, as for the analysis).
ARGS_LINE = re.compile(r"//.*\bdistlint-args:\s*(.*?)\s*$", re.M)


def build_flags(source):
    flags, words = [], []
    for m in ARGS_LINE.finditer(source):
        words += shlex.split(m.group(1))
    it = iter(words)
    for w in it:
        if w in ("-isystem", "-I", "-D", "-include"):
            flags += [w, next(it, "")]
        elif w.startswith(("-I", "-D", "-isystem")) or w == "-fopenmp":
            flags.append(w)
    return flags
SKIP = 77

# Loopback-only shared-memory transport, no network probing, no CMA (often
# blocked in containers), and idle ranks yield the CPU.
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_oob_tcp_if_include": "lo",
    "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_mpi_yield_when_idle": "1",
    "OMPI_MCA_plm": "isolated",
    "PMIX_MCA_gds": "hash",
    "PMIX_MCA_psec": "native",
}


def find_cases(repo):
    cases = []
    for path in sorted((repo / "testdata").rglob("*.cpp")):
        rel = path.relative_to(repo / "testdata").as_posix()
        if rel.startswith(("include/", "driver/", "projects/")):
            continue
        match = RUN_LINE.search(path.read_text(errors="replace"))
        if match:
            cases.append((path, match.group(1)))
    return cases


# Which programs the default run proves: every RUNPROOF_EVERY-th of each label
# in path order, so buggy and clean ones are both covered.
RUNPROOF_EVERY = 2


def sample(cases):
    if os.environ.get("DISTLINT_HEAVY", "0") == "1":
        return cases
    kept = []
    for label in ("buggy", "clean"):
        kept += [c for c in cases if c[1] == label][::RUNPROOF_EVERY]
    return sorted(kept)


def label_of(path):
    match = RUN_LINE.search(Path(path).read_text(errors="replace"))
    return match.group(1) if match else None


def build(path, work, mpicxx):
    """Compiles against the real <mpi.h>; reuses a binary built from the same
    source. Returns (binary, error)."""
    source = path.read_bytes()
    key = hashlib.sha1(source + mpicxx.encode()).hexdigest()[:16]
    binary = work / ("%s-%s" % (path.stem, key))
    if binary.exists():
        return binary, None
    tmp = binary.with_suffix(".tmp")
    flags = build_flags(source.decode(errors="replace"))
    proc = subprocess.run([mpicxx, "-std=c++17", "-O1"] + flags +
                          ["-o", str(tmp), str(path)],
                          capture_output=True, text=True, cwd=str(path.parent))
    if proc.returncode != 0:
        return None, proc.stderr.strip()
    os.replace(tmp, binary)
    return binary, None


def kill_group(proc):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=2)
            return
        except subprocess.TimeoutExpired:
            continue


def run(binary, mpirun, timeout, ranks):
    """Returns ('timeout' | exit code, seconds, output tail)."""
    env = dict(os.environ)
    env.update(MPI_ENV)
    with tempfile.TemporaryDirectory(prefix="distlint-runproof-") as tmp:
        env["TMPDIR"] = tmp
        env["OMPI_MCA_orte_tmpdir_base"] = tmp
        cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np",
               str(ranks), str(binary)]
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env, cwd=tmp,
                                start_new_session=True)
        try:
            out, _ = proc.communicate(timeout=timeout)
            result = proc.returncode
        except subprocess.TimeoutExpired:
            kill_group(proc)
            out, _ = proc.communicate()
            result = "timeout"
        elapsed = time.monotonic() - start
    text = out.decode(errors="replace").strip().splitlines()
    return result, elapsed, "\n".join(text[-6:])


def prove(path, label, args, work):
    binary, error = build(path, work, args.mpicxx)
    if binary is None:
        return False, "does not build with mpicxx:\n" + error
    m = RANKS_IN_RUN_LINE.search(Path(path).read_text(errors="replace"))
    ranks = int(m.group(1)) if m else args.ranks
    result, elapsed, tail = run(binary, args.mpirun, args.timeout, ranks)
    if label == "clean" and result == "timeout":
        # A clean program may miss the short timeout on a loaded machine
        # (mpirun's start included); a real hang misses a 4x longer one too.
        result, elapsed, tail = run(binary, args.mpirun, 4 * args.timeout,
                                    ranks)
    if label == "clean":
        ok = result == 0
        what = "finished (exit 0)" if ok else (
            "hung (killed after %gs, and %gs when rerun)" % (
                args.timeout, 4 * args.timeout) if result == "timeout"
            else "failed with exit code %s" % result)
    else:
        ok = result != 0
        what = ("hung (killed after %gs)" % args.timeout
                if result == "timeout" else
                "aborted (exit code %s)" % result if ok else
                "finished with exit 0")
    detail = "%s in %.1fs" % (what, elapsed)
    if not ok and tail:
        detail += "\n" + "\n".join("    | " + l for l in tail.splitlines())
    return ok, detail


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--work", help="cache for built programs")
    parser.add_argument("--timeout", type=float,
                        default=float(os.environ.get("DISTLINT_RUNPROOF_TIMEOUT", 2.5)),
                        help="seconds a buggy program must hang (a clean one "
                             "that misses it is rerun with 4x)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--mpicxx", default=shutil.which("mpicxx") or "")
    parser.add_argument("--mpirun", default=shutil.which("mpirun") or "")
    parser.add_argument("files", nargs="*",
                        help="programs to prove (default: all MPI testdata)")
    args = parser.parse_args()
    if not args.mpicxx or not args.mpirun:
        print("SKIPPED: mpicxx/mpirun not found (apt-get install "
              "libopenmpi-dev openmpi-bin)")
        return SKIP
    repo = Path(args.repo).resolve()
    work = Path(args.work or tempfile.mkdtemp(prefix="distlint-runproof-bin-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.files:
        cases = []
        for f in args.files:
            label = label_of(f)
            if label is None:
                print("error: %s has no '// run: mpi buggy|clean' line" % f)
                return 1
            cases.append((Path(f).resolve(), label))
    else:
        every = find_cases(repo)
        cases = sample(every)
        if len(cases) < len(every):
            print("proving %d of the %d labelled programs (one in %d of each "
                  "label; DISTLINT_HEAVY=1 proves all)" % (
                      len(cases), len(every), RUNPROOF_EVERY))
    if not cases:
        print("error: no MPI run-proof cases found")
        return 1

    start = time.monotonic()
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(prove, p, label, args, work): (p, label)
                   for p, label in cases}
        results = {}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()
    for (path, label), (ok, detail) in sorted(results.items()):
        try:
            name = path.relative_to(repo).as_posix()
        except ValueError:
            name = str(path)
        print("%s %s [%s]: %s" % ("PASS" if ok else "FAIL", name, label, detail))
        failures += not ok
    print("%d/%d MPI labels proven by running (np=%d, timeout %gs) in %.0fs" % (
        len(cases) - failures, len(cases), args.ranks, args.timeout,
        time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
