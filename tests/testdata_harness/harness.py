#!/usr/bin/env python3
"""Runs distlint on one testdata program and compares with its annotations.

Annotations (on the line they talk about, usually in a comment):
  // expect: rule-a, rule-b        findings of these rules on this line
  // expect: rule(note)             ... rated note rather than warning
  // expect@+N: rule  / expect@-N:  a finding N lines below / above
  // expect-note: <text>            a note on this line whose message contains <text>
  // expect-note@+N: <text>         ... N lines below (or @-N above)
  // distlint-args: <flags>         extra compile flags (after the defaults);
                                   relative paths are relative to the program
Default flags: -std=c++17 -I<repo>/testdata/include.

Fails on any missing or extra finding (rule, line and severity, counted),
any missing note, a compiler error, or an unexpected exit status (1 where a
finding is rated warning or above).

The program is analyzed on its own, without a shared precompiled preamble
and without the result cache. --save DIR keeps the JSON report, which
shared_preambles.py (issue 14) compares with the run of all programs on
shared preambles: both ways must report the same.
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys

EXPECT = re.compile(r"//.*?\bexpect(?:@([+-]\d+))?:\s*(.+?)\s*$")
EXPECT_NOTE = re.compile(r"\bexpect-note(?:@([+-]\d+))?:\s*(.+?)\s*$")
ARGS = re.compile(r"\bdistlint-args:\s*(.*?)\s*$")
RULE_ID = re.compile(r"^([a-z][a-z0-9-]*)(?:\((note|warning|error)\))?$")


class Expectations:
    def __init__(self):
        self.findings = collections.Counter()  # (line, rule, severity) -> count
        self.notes = []                         # (line, text, source line)
        self.args = []
        self.problems = []


def parse(path):
    ex = Expectations()
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for number, text in enumerate(lines, start=1):
        m = ARGS.search(text)
        if m:
            ex.args += shlex.split(m.group(1))
        m = EXPECT_NOTE.search(text)
        if m:
            line = number + int(m.group(1) or 0)
            ex.notes.append((line, m.group(2), number))
            text = text[:m.start()]
        m = EXPECT.search(text)
        if m:
            line = number + int(m.group(1) or 0)
            for rule in m.group(2).split(","):
                rule = rule.strip()
                r = RULE_ID.match(rule)
                if not r:
                    ex.problems.append(f"line {number}: bad rule id {rule!r} in expect:")
                    continue
                ex.findings[(line, r.group(1), r.group(2) or "warning")] += 1
    return ex


def known_gaps(repo):
    """The real paths of testdata/KNOWN_GAPS.txt's cases: programs whose
    annotations distlint does not meet yet; every stage that checks the
    annotations expects them to keep failing."""
    path = os.path.join(repo, "testdata", "KNOWN_GAPS.txt")
    gaps = set()
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#") and " -- " in line:
                gaps.add(os.path.join(repo, "testdata", line.split(" -- ")[0].strip()))
    return {os.path.realpath(g) for g in gaps}


def base_flags(repo, ex):
    return ["-std=c++17", "-I" + os.path.join(repo, "testdata", "include")] + ex.args


def check(doc, returncode, stderr, path, ex, repo):
    """The problems of one program's report (an empty list: it passed)."""
    failures = []
    for e in doc.get("errors", []):
        failures.append(f"compile error: {e['file']}: {e['message']}")
    actual = collections.Counter()
    notes_by_line = collections.defaultdict(list)
    rel = os.path.relpath(path, repo)
    for f in doc["findings"]:
        if os.path.realpath(f["file"]) != path:
            failures.append(f"extra finding in another file: {f['file']}:{f['line']}: "
                            f"{f['message']} [{f['rule']}]")
            continue
        actual[(f["line"], f["rule"], f.get("severity", "warning"))] += 1
        for n in f.get("notes", []):
            if os.path.realpath(n["file"]) == path:
                notes_by_line[n["line"]].append(n["message"])

    for key in sorted(set(actual) | set(ex.findings)):
        line, rule, sev = key
        have, want = actual[key], ex.findings[key]
        shown = rule if sev == "warning" else f"{rule}({sev})"
        if have < want:
            failures.append(f"missing: {rel}:{line}: [{shown}]" +
                            (f" ({want} expected, {have} reported)" if want > 1 else ""))
        elif have > want:
            msgs = [f["message"] for f in doc["findings"]
                    if f["line"] == line and f["rule"] == rule]
            failures.append(f"extra: {rel}:{line}: [{shown}] {msgs[0]}" +
                            (f" ({have} reported, {want} expected)" if want else ""))
    for line, text, source in ex.notes:
        if not any(text in m for m in notes_by_line[line]):
            failures.append(f"missing note at {rel}:{line} containing {text!r} "
                            f"(expect-note on line {source}); notes there: "
                            f"{notes_by_line[line]}")

    failing = [f for f in doc["findings"] if f.get("severity", "warning") != "note"]
    want_rc = 2 if doc.get("errors") else (1 if failing else 0)
    if returncode is not None and returncode != want_rc:
        failures.append(f"exit status {returncode}, expected {want_rc}; stderr:\n{stderr}")
    return failures


def saved_report_path(save_dir, repo, path):
    return os.path.join(save_dir, os.path.relpath(path, repo).replace("/", "__") + ".json")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--save", help="directory for the JSON report")
    ap.add_argument("file")
    a = ap.parse_args()
    path = os.path.realpath(a.file)
    a.repo = os.path.realpath(a.repo)
    ex = parse(path)
    if ex.problems:
        print("\n".join(ex.problems))
        return 1
    cmd = [os.path.abspath(a.distlint), "--format=json", "--quiet", "-j", "1", "--no-cache",
           "--no-preamble-sharing", path, "--"] + base_flags(a.repo, ex)
    # Result cache budget 0: every function body is dropped as soon as nobody
    # holds it and rebuilt on the next question (engine/BodyCache.cpp), so
    # each program's expectations also prove that rebuilt bodies answer like
    # kept ones. (Programs this small never fill the default budget.)
    env = dict(os.environ, DISTLINT_RESULT_CACHE_BYTES="0")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=a.timeout, cwd=os.path.dirname(path), env=env)
    except subprocess.TimeoutExpired:
        print(f"distlint timed out after {a.timeout}s: {shlex.join(cmd)}")
        return 1
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        print(f"distlint exit {p.returncode}, no JSON output:\n{p.stdout}\n{p.stderr}")
        return 1
    if a.save:
        os.makedirs(a.save, exist_ok=True)
        target = saved_report_path(a.save, a.repo, path)
        with open(target + ".tmp", "w") as fh:
            json.dump({"findings": doc["findings"], "errors": doc.get("errors", []),
                       "returncode": p.returncode}, fh, indent=1, sort_keys=True)
        os.replace(target + ".tmp", target)

    rel = os.path.relpath(path, a.repo)
    failures = check(doc, p.returncode, p.stderr, path, ex, a.repo)
    if failures:
        print(f"{rel}: {len(failures)} problem(s)\n  " + "\n  ".join(failures))
        print("command: " + shlex.join(cmd))
        return 1
    print(f"{rel}: {sum(ex.findings.values())} expected finding(s) reported, "
          f"{len(ex.notes)} note(s) checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
