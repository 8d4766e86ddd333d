#!/usr/bin/env python3
"""The shipped VS Code problem matcher parses real distlint text output.

Reads every problemMatcher regexp from docs/ide/vscode/tasks.json, runs the
real binary in text and JSON mode on inputs/lsp_divergent.cpp, and requires
each finding and note of the JSON report to be matched from the text lines
with the right file, line, column, severity, message and rule code -- with
absolute paths as distlint prints them and with workspace-relative ones
(what `fileLocation: autoDetect` also accepts). Tool errors (a file that
does not compile) go to stderr in clang's form and must be matched too, at
the place the compiler reported.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

TASKS = os.path.join(lib.REPO, "docs", "ide", "vscode", "tasks.json")
INPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs",
                     "lsp_divergent.cpp")


def to_python_regex(js):
    # The shipped patterns use only syntax JavaScript and Python share;
    # refuse anything else rather than test a different regex.
    assert not re.search(r"\(\?<[^=!]|\\[pPk]|\(\?[imsx]", js), "JS-only syntax in " + js
    return re.compile(js)


def matchers():
    with open(TASKS) as f:
        tasks = json.load(f)["tasks"]
    found = []
    for t in tasks:
        pm = t.get("problemMatcher")
        if isinstance(pm, dict):
            assert pm["fileLocation"][0] == "autoDetect", t["label"]
            found.append((t["label"], pm["pattern"]))
    assert found, "no problem matcher in " + TASKS
    return found


def expected_entries(report):
    for f in report["findings"]:
        yield {"file": f["file"], "line": f["line"], "column": f["column"],
               "severity": f["severity"], "message": f["message"], "code": f["rule"]}
        for n in f.get("notes", []):
            yield {"file": n["file"], "line": n["line"], "column": n["column"],
                   "severity": "note", "message": n["message"], "code": None}


def parse(pattern, regex, line):
    m = regex.match(line)
    if not m:
        return None
    g = lambda key: m.group(pattern[key]) if key in pattern else None  # noqa: E731
    return {"file": g("file"), "line": int(g("line")), "column": int(g("column")),
            "severity": g("severity"), "message": g("message"), "code": g("code")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    args = ap.parse_args()
    args.distlint = os.path.realpath(args.distlint)
    flags = ["--", "-std=c++17", "-I" + os.path.join(lib.REPO, "testdata", "include")]
    text = subprocess.run([args.distlint, "--quiet", INPUT] + flags, capture_output=True,
                          text=True, timeout=300, cwd=lib.REPO)
    js = subprocess.run([args.distlint, "--quiet", "--format=json", INPUT] + flags,
                        capture_output=True, text=True, timeout=300, cwd=lib.REPO)
    try:
        assert text.returncode in (0, 1) and js.returncode in (0, 1), text.stderr + js.stderr
        report = json.loads(js.stdout)
        want = list(expected_entries(report))
        assert report["findings"], "distlint found nothing on %s:\n%s" % (INPUT, text.stdout)
        lines = [l for l in text.stdout.splitlines() if l.strip()]
        print("distlint text output:\n  " + "\n  ".join(lines))
        root = lib.REPO + os.sep
        relative_lines = [l[len(root):] if l.startswith(root) else l for l in lines]
        assert relative_lines != lines, "no absolute path in the text output"

        for label, pattern in matchers():
            regex = to_python_regex(pattern["regexp"])
            for variant, variant_lines in (("absolute", lines), ("relative", relative_lines)):
                got = [p for p in (parse(pattern, regex, l) for l in variant_lines) if p]
                for w in want:
                    path = w["file"] if variant == "absolute" else os.path.relpath(w["file"], lib.REPO)
                    hit = [g for g in got if g["file"] == path and g["line"] == w["line"]
                           and g["column"] == w["column"] and g["severity"] == w["severity"]
                           and g["message"] == w["message"] and g["code"] == w["code"]]
                    assert hit, "%s (%s paths): no match for %s in %s" % (label, variant, w, got)
                assert len(got) == len(want), "%s: matched %d lines, report has %d entries" \
                    % (label, len(got), len(want))
            print("ok: '%s' matches all %d findings/notes (absolute and relative paths)"
                  % (label, len(want)))

        # A translation unit that does not compile: its error on stderr.
        broken = os.path.join(lib.REPO, "testdata", "driver", "syntax_error.cpp")
        err_text = subprocess.run([args.distlint, "--quiet", broken] + flags,
                                  capture_output=True, text=True, timeout=300, cwd=lib.REPO)
        err_js = subprocess.run([args.distlint, "--quiet", "--format=json", broken] + flags,
                                capture_output=True, text=True, timeout=300, cwd=lib.REPO)
        assert err_text.returncode == 2, err_text.stdout + err_text.stderr
        reported = json.loads(err_js.stdout)["errors"]
        assert len(reported) == 1, reported
        where = re.match(r"^(/[^:]+):(\d+):(\d+): (.*)$", reported[0]["message"])
        assert where, "the JSON error has no compiler location: %s" % reported
        print("distlint stderr:\n  " + err_text.stderr.strip())
        for label, pattern in matchers():
            regex = to_python_regex(pattern["regexp"])
            got = [p for p in (parse(pattern, regex, l)
                               for l in err_text.stderr.splitlines()) if p]
            assert any(g["file"] == where.group(1) and g["line"] == int(where.group(2))
                       and g["column"] == int(where.group(3)) and g["severity"] == "error"
                       and g["message"].startswith(where.group(4)) for g in got), \
                "%s: the compile error is not matched: %s" % (label, got)
            print("ok: '%s' matches the tool error on stderr" % label)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
