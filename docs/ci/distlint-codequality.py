#!/usr/bin/env python3
"""distlint JSON -> GitLab Code Quality (CodeClimate JSON subset).

    distlint --all -p build --format=json --output distlint.json
    distlint-codequality.py distlint.json [--root DIR] > gl-code-quality-report.json

GitLab needs, per issue: description, check_name, fingerprint (unique per
issue; distlint's fingerprint is stable across unrelated edits, which is what
GitLab's MR diffing of reports relies on), severity
(info|minor|major|critical|blocker) and location.path (repo-relative) +
location.lines.begin. Notes are appended to the description. Files that could
not be analyzed become `distlint-error` issues so they are not silently lost.
"""
import argparse
import hashlib
import json
import os
import sys

SEVERITY = {"note": "info", "warning": "major", "error": "critical"}


def relative(path, root):
    path = os.path.normpath(path)
    if os.path.isabs(path):
        rel = os.path.relpath(path, root)
        if not rel.startswith(".."):
            return rel
    return path


def convert(report, root):
    issues, seen = [], set()
    for f in report.get("findings", []):
        path = relative(f["file"], root)
        description = f["message"]
        for n in f.get("notes", []):
            description += " | note: %s:%d: %s" % (
                relative(n["file"], root), n["line"], n["message"])
        fingerprint = f.get("fingerprint") or hashlib.sha1(
            ("%s|%s|%s" % (f["rule"], path, f["message"])).encode()).hexdigest()
        # GitLab requires unique fingerprints within one report.
        base, k = fingerprint, 1
        while fingerprint in seen:
            k += 1
            fingerprint = "%s-%d" % (base, k)
        seen.add(fingerprint)
        issues.append({
            "type": "issue",
            "check_name": f["rule"],
            "description": description,
            "categories": ["Bug Risk"],
            "severity": SEVERITY.get(f.get("severity", "warning"), "major"),
            "fingerprint": fingerprint,
            "location": {"path": path, "lines": {"begin": int(f["line"])}},
        })
    for e in report.get("errors", []):
        path = relative(e["file"], root)
        issues.append({
            "type": "issue",
            "check_name": "distlint-error",
            "description": "distlint could not analyze this file: " + e["message"],
            "categories": ["Bug Risk"],
            "severity": "minor",
            "fingerprint": hashlib.sha1(("error|" + path).encode()).hexdigest(),
            "location": {"path": path, "lines": {"begin": 1}},
        })
    return issues


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="distlint --format=json output ('-' = stdin)")
    ap.add_argument("--root", default=os.getcwd(),
                    help="repository root for relative paths (default: cwd)")
    args = ap.parse_args()
    try:
        src = sys.stdin if args.report == "-" else open(args.report)
        report = json.load(src)
    except (OSError, ValueError) as e:
        print("distlint-codequality: error: cannot read %s: %s" % (args.report, e),
              file=sys.stderr)
        return 2
    json.dump(convert(report, os.path.realpath(args.root)), sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
