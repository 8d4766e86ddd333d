#!/usr/bin/env python3
"""Checks that harness.py fails on missing, extra and misplaced findings.

Runs the harness against a fake `distlint` that prints a canned JSON report,
so it tests the comparison logic without depending on any rule.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tmp, source, findings, errors=(), rc=None):
    src = os.path.join(tmp, "case.cpp")
    with open(src, "w") as fh:
        fh.write(source)
    report = {"tool": {"name": "distlint", "version": "0"},
              "findings": [dict(file=src, column=1, severity="warning",
                                message="m", fingerprint="f", **f)
                           for f in findings],
              "errors": list(errors)}
    if rc is None:
        rc = 2 if errors else (1 if findings else 0)
    fake = os.path.join(tmp, "fake-distlint")
    with open(fake, "w") as fh:
        fh.write("#!/bin/sh\ncat <<'EOF'\n" + json.dumps(report) + "\nEOF\nexit %d\n" % rc)
    os.chmod(fake, 0o755)
    p = subprocess.run([sys.executable, os.path.join(HERE, "harness.py"), "--distlint",
                        fake, "--repo", tmp, src], stdout=subprocess.PIPE, text=True)
    return p.returncode, p.stdout


def main():
    failures = []

    def expect(name, want_ok, got):
        rc, out = got
        if (rc == 0) != want_ok:
            failures.append(f"{name}: harness exit {rc}\n{out}")

    with tempfile.TemporaryDirectory() as tmp:
        src = ("int a;\n"
               "int b; // expect: r-one, r-two\n"
               "// expect@+1: r-one\n"
               "int c; // expect-note: rank comes\n"
               "int d;\n")
        good = [dict(rule="r-one", line=2, notes=[]), dict(rule="r-two", line=2, notes=[]),
                dict(rule="r-one", line=4,
                     notes=[dict(file=os.path.join(tmp, "case.cpp"), line=4, column=1,
                                 message="the rank comes from here")])]
        expect("exact match passes", True, run(tmp, src, good))
        expect("missing finding fails", False, run(tmp, src, good[1:]))
        extra = good + [dict(rule="r-one", line=5, notes=[])]
        expect("extra finding fails", False, run(tmp, src, extra))
        wrong_line = [dict(good[0], line=3)] + good[1:]
        expect("wrong line fails", False, run(tmp, src, wrong_line))
        wrong_rule = [dict(good[0], rule="r-three")] + good[1:]
        expect("wrong rule fails", False, run(tmp, src, wrong_rule))
        duplicate = good + [good[0]]
        expect("duplicate finding fails", False, run(tmp, src, duplicate))
        no_note = good[:2] + [dict(good[2], notes=[])]
        expect("missing note fails", False, run(tmp, src, no_note))
        expect("compile error fails", False,
               run(tmp, src, good, errors=[dict(file="x", message="boom")]))
        expect("wrong exit status fails", False, run(tmp, src, good, rc=0))
        expect("clean file passes", True, run(tmp, "int a;\n", []))
    if failures:
        print("\n".join(failures))
        return 1
    print("harness self-test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
