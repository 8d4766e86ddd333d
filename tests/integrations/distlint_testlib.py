"""Helpers shared by the integration tests (stdlib only).

Parses testdata files the way the testdata harness does (default flags,
`// distlint-args:` lines, `// expect:` annotations) and parses clang-style
text diagnostics.
"""
import json
import os
import re
import shlex

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))

# testdata/include holds headers; testdata/driver holds CLI inputs (broken
# files, NOLINT misuse) that are not analysis cases.
NON_CASE_DIRS = ("include", "driver", "projects")  # projects/: tests/projects

# `path:line:col: severity: message [rule]` (the rule only on findings).
DIAG_LINE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>warning|error|note|fatal error): (?P<msg>.*?)"
    r"(?: \[(?P<rules>[A-Za-z0-9_.,+-]+)\])?$")

EXPECT = re.compile(r"//\s*expect(?:@(?P<off>[+-]\d+))?:\s*(?P<rules>[\w, -]+)")
EXPECT_NOTE = re.compile(r"//\s*expect-note:\s*(?P<text>.*?)\s*$")


def testdata_cases(root=None):
    """All testdata programs (absolute, sorted)."""
    root = root or os.path.join(REPO, "testdata")
    cases = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel.split(os.sep)[0] in NON_CASE_DIRS:
            dirnames[:] = []
            continue
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".cpp", ".cc", ".cxx", ".cu")):
                cases.append(os.path.join(dirpath, name))
    return sorted(cases)


def shared_run_name(files, flags):
    """File name of the saved report of one distlint run over files with
    flags (see shared_run)."""
    import hashlib
    key = json.dumps([sorted(os.path.realpath(f) for f in files), list(flags)])
    return "run-" + hashlib.sha256(key.encode()).hexdigest()[:20] + ".json"


def shared_run(distlint, files, flags, save_dir=None, timeout=900):
    """One distlint run over files (one flag set) with preamble sharing on and
    no result cache: {"report": JSON report or None, "stderr": ..., "exit":
    status}. With save_dir, a run saved there by this build's binary (newer
    than it, same files and flags) is reused, and a new run is saved: the
    testdata tests (testdata.shared_preambles, integrations.tidy_plugin_agrees)
    need this run once, not once each."""
    path = os.path.join(save_dir, shared_run_name(files, flags)) if save_dir else None
    if path and os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(distlint):
        with open(path) as fh:
            saved = json.load(fh)
        if saved.get("files") == list(files) and saved.get("flags") == list(flags):
            return saved
    import subprocess
    cmd = [distlint, "--format=json", "--quiet", "--verbose", "--no-cache", "-j", "2"]
    # From the programs' folder, as harness.py runs each alone: the project
    # root (and so each fingerprint) comes from the git checkout around it,
    # not from where the build folder happens to be.
    p = subprocess.run(cmd + list(files) + ["--"] + list(flags), capture_output=True,
                       text=True, timeout=timeout,
                       cwd=os.path.dirname(os.path.realpath(files[0])))
    try:
        report = json.loads(p.stdout)
    except ValueError:
        report = None
    run = {"files": list(files), "flags": list(flags), "report": report,
           "stderr": p.stderr, "exit": p.returncode, "command": cmd}
    if path and report is not None:
        os.makedirs(save_dir, exist_ok=True)
        with open(path + ".tmp", "w") as fh:
            json.dump(run, fh)
        os.replace(path + ".tmp", path)
    return run


def compile_flags(path):
    """Flags the testdata harness uses for this file. Relative include
    paths are relative to the program (the harness runs from its folder);
    here they are made absolute, so programs can be analyzed together."""
    flags = ["-std=c++17", "-I" + os.path.join(REPO, "testdata", "include")]
    words = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"//\s*distlint-args:\s*(.*)$", line)
            if m:
                words += shlex.split(m.group(1))
    here = os.path.dirname(os.path.realpath(path))
    it = iter(words)
    for w in it:
        if w in ("-I", "-isystem"):
            d = next(it, "")
            flags += [w, d if os.path.isabs(d) else os.path.normpath(os.path.join(here, d))]
        elif w.startswith("-I") and not os.path.isabs(w[2:]):
            flags.append("-I" + os.path.normpath(os.path.join(here, w[2:])))
        else:
            flags.append(w)
    return flags


def expectations(path):
    """[(line, rule)] from `// expect:` annotations, and [(line, text)] notes."""
    found, notes = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            for m in EXPECT.finditer(line):
                target = number + int(m.group("off") or 0)
                for rule in m.group("rules").split(","):
                    if rule.strip():
                        found.append((target, rule.strip()))
            m = EXPECT_NOTE.search(line)
            if m:
                notes.append((number, m.group("text")))
    return found, notes


def parse_clang_text(text):
    """Findings from clang-style text: a list of dicts with notes attached to
    the finding they follow. Compiler errors come back separately."""
    findings, errors = [], []
    current = None
    for line in text.splitlines():
        m = DIAG_LINE.match(line)
        if not m:
            continue
        entry = {"file": os.path.realpath(m.group("file")),
                 "line": int(m.group("line")), "column": int(m.group("col")),
                 "severity": m.group("sev"), "message": m.group("msg")}
        rules = m.group("rules") or ""
        if m.group("sev") == "note":
            if current is not None:
                current["notes"].append(entry)
            continue
        distlint_rules = [r for r in rules.split(",") if r.startswith("distlint-")]
        if not distlint_rules:
            errors.append(entry)
            current = None
            continue
        for rule in distlint_rules:
            current = dict(entry, rule=rule, notes=[])
            findings.append(current)
    return findings, errors
