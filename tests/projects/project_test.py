#!/usr/bin/env python3
"""Analyzes a CMake project of testdata/projects/ through its compile database.

  project_test.py --distlint BIN --repo REPO --work DIR PROJECT_DIR

The project is configured as an HPC project is: C and C++ with the MPI
wrappers as compilers (CMAKE_C_COMPILER=mpicc, CMAKE_CXX_COMPILER=mpicxx),
CUDA with CMake's CUDA language and nvcc. `distlint -p DIR --all` must then
analyze every file of the database without a compile error and report
exactly the findings annotated in the sources (`// expect: rule`, as in
testdata/; tests/testdata_harness/harness.py parses them), and every
`// expect-note:` of any source must be a note of some finding: a finding
caused by a function another file defines points there. --verbose must show
each wrapper expanded and nvcc translated: the files are parsed the way the
build compiles them, not by luck.

Then the pre-commit path: `--all` again on a fresh cache directory (cold,
then warm), and each file alone on that warm cache must give the same
findings as the whole-project run (the summary index of the last run).

A source labelled `// run: mpi buggy|clean` is built by the project's own
build and run with mpirun -np 2 (tests/runproof): buggy must hang or fail.

Exit: 0 pass, 1 fail, 77 mpicc, nvcc, mpirun or cmake missing.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "testdata_harness"))
sys.path.insert(0, os.path.join(HERE, "..", "runproof"))
import harness  # noqa: E402
import runproof  # noqa: E402

SKIP = 77
SOURCE_EXTS = (".c", ".cc", ".cpp", ".cu")


def find_nvcc():
    for candidate in (os.environ.get("CUDACXX"), shutil.which("nvcc"),
                      "/usr/local/cuda/bin/nvcc"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("project")
    a = ap.parse_args()
    project = os.path.realpath(a.project)
    tools = {"mpicc": shutil.which("mpicc"), "mpirun": shutil.which("mpirun"),
             "nvcc": find_nvcc(), "cmake": shutil.which("cmake"),
             "ninja": shutil.which("ninja")}
    missing = [name for name, path in tools.items() if not path]
    if missing:
        print("SKIPPED: not installed: " + ", ".join(missing))
        return SKIP

    os.makedirs(a.work, exist_ok=True)
    languages = {os.path.splitext(n)[1] for n in os.listdir(project)}
    if ".cpp" in languages and not shutil.which("mpicxx"):
        print("SKIPPED: not installed: mpicxx")
        return SKIP
    configure = [tools["cmake"], "-S", project, "-B", a.work, "-G", "Ninja",
                 "-DCMAKE_C_COMPILER=mpicc", "-DCMAKE_CXX_COMPILER=mpicxx",
                 "-DCMAKE_CUDA_COMPILER=" + tools["nvcc"],
                 "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
    p = subprocess.run(configure, capture_output=True, text=True)
    if p.returncode != 0:
        print("cmake configure failed:\n" + p.stdout[-3000:] + p.stderr[-3000:])
        return 1
    with open(os.path.join(a.work, "compile_commands.json")) as fh:
        database = json.load(fh)
    compilers = {os.path.basename(e["command"].split()[0]) for e in database}
    wanted = {ext: c for ext, c in ((".c", "mpicc"), (".cu", "nvcc"),
                                    (".cpp", "mpicxx")) if ext in languages}
    if not set(wanted.values()) <= compilers:
        print("the database was not made by %s: %s" % (
            " and ".join(sorted(wanted.values())), sorted(compilers)))
        return 1

    cmd = [a.distlint, "-p", a.work, "--all", "--format=json", "--quiet",
           "--verbose", "-j", "1", "--no-cache"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        print("distlint exit %d, no JSON:\n%s\n%s" % (p.returncode, p.stdout, p.stderr))
        return 1

    failures = []
    for e in doc.get("errors", []):
        failures.append("compile error: %s: %s" % (e["file"], e["message"]))
    needles = {"mpicc": "mpicc runs ", "mpicxx": "mpicxx runs ",
               "nvcc": "nvcc command translated"}
    for needle in (needles[c] for c in sorted(wanted.values())):
        if needle not in p.stderr:
            failures.append("--verbose does not say %r" % needle)

    expected = collections.Counter()
    sources = sorted(os.path.join(project, n) for n in os.listdir(project)
                     if n.endswith(SOURCE_EXTS))
    for path in sources:
        ex = harness.parse(path)
        failures += ex.problems
        for (line, rule, sev), n in ex.findings.items():
            expected[(path, line, rule, sev)] += n
    actual = collections.Counter(
        (os.path.realpath(f["file"]), f["line"], f["rule"],
         f.get("severity", "warning")) for f in doc["findings"])
    for key in sorted(set(expected) | set(actual)):
        want, have = expected[key], actual[key]
        if want != have:
            path, line, rule, sev = key
            failures.append("%s: %s:%d: [%s] %s (%d expected, %d reported)" % (
                "missing" if have < want else "extra",
                os.path.relpath(path, a.repo), line, rule, sev, want, have))
    notes = [(os.path.realpath(n["file"]), n["line"], n["message"])
             for f in doc["findings"] for n in f.get("notes", [])]
    for path in sources:
        for line, text, at in harness.parse(path).notes:
            if not any(f == path and l == line and text in m for f, l, m in notes):
                failures.append("missing note: %s:%d: %r (expect-note on line %d)"
                                % (os.path.relpath(path, a.repo), line, text, at))
    failures += per_file_after_whole(a, database, actual)
    failing = [f for f in doc["findings"] if f.get("severity", "warning") != "note"]
    want_rc = 2 if doc.get("errors") else (1 if failing else 0)
    if p.returncode != want_rc:
        failures.append("exit status %d, expected %d" % (p.returncode, want_rc))

    proofs = run_proofs(sources, a.work, tools["mpirun"])
    failures += [f for ok, f in proofs if not ok]
    if failures:
        print("%s: %d problem(s)\n  %s" % (os.path.relpath(project, a.repo),
                                           len(failures), "\n  ".join(failures)))
        print("command: " + " ".join(cmd) + "\nstderr:\n" + p.stderr[-4000:])
        return 1
    print("%s: %d file(s) analyzed, %d expected finding(s) reported; %s" % (
        os.path.relpath(project, a.repo), len(database), sum(expected.values()),
        "; ".join(f for _, f in proofs) or "no run proofs"))
    return 0


def findings_of(doc):
    return collections.Counter(
        (os.path.realpath(f["file"]), f["line"], f["rule"],
         f.get("severity", "warning"), f["message"]) for f in doc["findings"])


def per_file_after_whole(a, database, whole):
    """The pre-commit path: after a whole-project run on a cache directory,
    each file analyzed alone (same cache) reports what the whole run
    reported for it. Returns failures."""
    cache = os.path.join(a.work, "distlint-cache")
    shutil.rmtree(cache, ignore_errors=True)
    base = [a.distlint, "-p", a.work, "--format=json", "--quiet", "-j", "1",
            "--cache-dir", cache]
    runs = []
    for attempt in ("cold", "warm"):
        p = subprocess.run(base + ["--all"], capture_output=True, text=True,
                           timeout=900)
        try:
            runs.append(findings_of(json.loads(p.stdout)))
        except ValueError:
            return ["--all (%s cache) gave no JSON: %s" % (attempt, p.stderr[-2000:])]
    failures = []
    plain = collections.Counter({k[:4]: n for k, n in runs[0].items()})
    if plain != whole:
        failures.append("--all on a cache directory differs from --no-cache")
    if runs[1] != runs[0]:
        failures.append("--all on the warm cache differs from the cold run")
    alone = collections.Counter()
    for entry in database:
        file = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        p = subprocess.run(base + ["--verbose", file], capture_output=True,
                           text=True, timeout=900)
        if "project index " not in p.stderr:
            failures.append("%s alone: --verbose does not name the project "
                            "index" % os.path.relpath(file, a.repo))
        try:
            alone += findings_of(json.loads(p.stdout))
        except ValueError:
            failures.append("%s alone gave no JSON" % file)
    for key in sorted(set(alone) | set(runs[0])):
        if alone[key] != runs[0][key]:
            failures.append("file alone after --all: %s %s:%d [%s] (%d alone, "
                            "%d in the whole run)" % (
                                "extra" if alone[key] > runs[0][key] else "missing",
                                os.path.relpath(key[0], a.repo), key[1], key[2],
                                alone[key], runs[0][key]))
    return failures


def run_proofs(sources, work, mpirun):
    """(ok, what) per `// run: mpi` source, built by the project's build:
    the target named like the source."""
    results = []
    for path in sources:
        label = runproof.label_of(path)
        if label is None:
            continue
        target = os.path.splitext(os.path.basename(path))[0]
        b = subprocess.run(["cmake", "--build", work, "--target", target],
                           capture_output=True, text=True)
        if b.returncode != 0:
            results.append((False, "%s does not build:\n%s" % (target, b.stdout[-2000:])))
            continue
        os.environ.setdefault("OMP_NUM_THREADS", "2")
        timeout = float(os.environ.get("DISTLINT_RUNPROOF_TIMEOUT", 2.5))
        result, elapsed, tail = runproof.run(os.path.join(work, target), mpirun,
                                             timeout, 2)
        if label == "buggy":
            ok = result != 0
            what = ("hung (killed after %gs)" % timeout if result == "timeout"
                    else "exit code %s" % result)
        else:
            ok = result == 0
            what = "exit code %s" % result
        results.append((ok, "%s [%s] under mpirun -np 2: %s in %.1fs%s" % (
            target, label, what, elapsed, "" if ok else "\n" + tail)))
    return results


if __name__ == "__main__":
    sys.exit(main())
