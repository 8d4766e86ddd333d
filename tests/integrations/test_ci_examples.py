#!/usr/bin/env python3
"""The shipped CI examples and IDE tasks use options distlint really has.

docs/ci/*.yml and docs/ide/vscode/tasks.json are documentation people copy;
this catches drift: every `--option` / `-x` they pass to distlint must be in
`distlint --help`, the GitHub workflow must upload the very file the SARIF
step writes (with security-events permission) and gate on the baseline, and
the GitLab job must publish the file the Code Quality converter writes.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

try:
    import yaml  # python3-yaml, a dependency of Debian's pre-commit
except ImportError:  # pragma: no cover
    yaml = None

DOCS = os.path.join(lib.REPO, "docs")


def distlint_calls(script):
    """argv lists of every distlint invocation in a shell snippet."""
    calls = []
    for line in script.replace("\\\n", " ").splitlines():
        line = re.sub(r"^\s*-\s+", "", line)  # a YAML list item
        for part in re.split(r"&&|\|\||;|\bthen\b|\belse\b", line):
            try:
                words = shlex.split(part, comments=True)
            except ValueError:
                continue
            if words and os.path.basename(words[0]) == "distlint":
                calls.append(words)
    return calls


def options_of(call):
    opts = []
    for w in call[1:]:
        if w == "--":
            break
        if w.startswith("-"):
            opts.append(w.split("=", 1)[0])
    return opts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    args = ap.parse_args()
    help_text = subprocess.run([args.distlint, "--help"], capture_output=True,
                               text=True).stdout
    known = set(re.findall(r"^\s+(--?[a-z][a-z-]*)", help_text, re.M))
    try:
        assert "--format" in known and "-p" in known, "unexpected --help:\n" + help_text

        calls = []
        gh_text = open(os.path.join(DOCS, "ci", "github-actions.yml")).read()
        gl_text = open(os.path.join(DOCS, "ci", "gitlab-ci.yml")).read()
        calls += distlint_calls(gh_text) + distlint_calls(gl_text)
        tasks = json.load(open(os.path.join(DOCS, "ide", "vscode", "tasks.json")))["tasks"]
        calls += [[t["command"]] + t["args"] for t in tasks if t["command"] == "distlint"]
        assert len(calls) >= 8, "expected distlint calls in the examples, found %s" % calls
        for call in calls:
            unknown = [o for o in options_of(call) if o not in known]
            assert not unknown, "unknown option(s) %s in: %s" % (unknown, " ".join(call))
        print("ok: %d distlint calls in docs/ci and docs/ide use known options" % len(calls))

        if yaml is None:
            print("note: PyYAML missing; structure checks skipped")
            print("PASS")
            return 0
        gh = yaml.safe_load(gh_text)
        assert gh["permissions"].get("security-events") == "write", gh["permissions"]
        steps = [s for job in gh["jobs"].values() for s in job["steps"]]
        sarif_out = [c[c.index("--output") + 1] for s in steps
                     for c in distlint_calls(s.get("run", ""))
                     if "--format=sarif" in c and "--output" in c]
        uploads = [s["with"]["sarif_file"] for s in steps
                   if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif")]
        assert sarif_out and uploads and uploads[0] == sarif_out[0], (sarif_out, uploads)
        assert any("--baseline" in c for s in steps for c in distlint_calls(s.get("run", ""))), \
            "no baseline gate in the GitHub workflow"
        print("ok: GitHub workflow uploads %s and gates on the baseline" % uploads[0])

        gl = yaml.safe_load(gl_text)["distlint"]
        report = gl["artifacts"]["reports"]["codequality"]
        script = "\n".join(gl["script"])
        assert "distlint-codequality.py" in script and "> " + report in script, script
        assert os.path.isfile(os.path.join(DOCS, "ci", "distlint-codequality.py"))
        assert "--baseline" in script
        print("ok: GitLab job publishes %s from the converter and gates on the baseline" % report)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
