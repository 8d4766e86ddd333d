#!/usr/bin/env python3
"""Issue 14: every testdata program analyzed on shared precompiled preambles.

One distlint run per distinct `distlint-args` set analyzes all the programs
at once with preamble sharing on (the default): programs whose leading
includes agree parse on one precompiled preamble. Each program's part of the
report must

  * satisfy its annotations, exactly as harness.py checks them (known gaps,
    testdata/KNOWN_GAPS.txt, are exempt: they fail there by design), and
  * equal, finding for finding (rule, place, message, notes, fixes,
    fingerprint) and error for error, the report harness.py saved when it
    analyzed the program alone without sharing (--saved DIR); a missing or
    stale saved report is a failure.

Fails as well if no program was parsed on a shared preamble. --reports DIR:
where integrations.tidy_plugin_agrees saved the same runs (one per flag set,
compared there with the clang-tidy plugin); a run saved by this binary is
reused instead of being made again.
"""
import argparse
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "integrations"))
import distlint_testlib as lib  # noqa: E402
import harness  # noqa: E402


def comparable(findings):
    return sorted(json.dumps(f, sort_keys=True) for f in findings)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--saved", required=True, help="harness.py --save directory")
    ap.add_argument("--reports", help="directory of the saved runs (shared with "
                    "integrations.tidy_plugin_agrees)")
    a = ap.parse_args()
    repo = os.path.realpath(a.repo)
    gaps = harness.known_gaps(repo)
    binary_time = os.path.getmtime(a.distlint)
    # The grouping and flags of integrations/compare_tidy.py (the harness's
    # flags), so it can reuse these runs.
    groups = collections.defaultdict(list)
    expectations = {}
    for path in lib.testdata_cases(os.path.join(repo, "testdata")):
        path = os.path.realpath(path)
        expectations[path] = harness.parse(path)
        groups[tuple(lib.compile_flags(path))].append(path)

    failures, shared, compared = [], 0, 0
    start = time.time()
    for flags, paths in sorted(groups.items()):
        flags = list(flags)
        args = expectations[paths[0]].args
        t0 = time.time()
        run = lib.shared_run(a.distlint, paths, flags, a.reports)
        doc, stderr = run["report"], run["stderr"]
        if doc is None:
            failures.append(f"no JSON output (exit {run['exit']}): {len(paths)} programs "
                            f"with flags {flags}\n{stderr[-2000:]}")
            continue
        users = sum("shares preamble" in l for l in stderr.splitlines())
        shared += users
        print(f"{len(paths)} program(s) with flags {' '.join(args) or '(default)'}: "
              f"{time.time() - t0:.0f} s, {users} parsed on a shared preamble")
        mine = set(paths)
        for f in doc["findings"]:
            if os.path.realpath(f["file"]) not in mine:
                failures.append(f"finding outside the programs: {f['file']}:{f['line']}: "
                                f"[{f['rule']}]")
        for path in paths:
            rel = os.path.relpath(path, repo)
            part = {
                "findings": [f for f in doc["findings"]
                             if os.path.realpath(f["file"]) == path],
                "errors": [e for e in doc.get("errors", [])
                           if os.path.realpath(e["file"]) == path],
            }
            problems = []
            if path not in gaps:
                problems += harness.check(part, None, "", path, expectations[path], repo)
            saved = harness.saved_report_path(a.saved, repo, path)
            if not os.path.exists(saved) or os.path.getmtime(saved) < binary_time:
                problems.append(f"no report of the run without sharing newer than "
                                f"{a.distlint} ({saved}); run the testdata tests first")
            else:
                compared += 1
                alone = json.load(open(saved))
                if comparable(alone["findings"]) != comparable(part["findings"]):
                    problems.append("findings differ from the run without sharing "
                                    f"({saved})")
                if comparable(alone["errors"]) != comparable(part["errors"]):
                    problems.append(f"errors differ from the run without sharing ({saved})")
            if problems:
                failures.append(f"{rel}:\n    " + "\n    ".join(problems))
    print(f"{len(expectations)} programs on shared preambles in {time.time() - start:.0f} s; "
          f"{shared} parsed on a shared preamble; {compared} compared with the run "
          f"without sharing")
    if not shared:
        failures.append("no program was parsed on a shared preamble")
    if failures:
        print(f"{len(failures)} problem(s):\n" + "\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
