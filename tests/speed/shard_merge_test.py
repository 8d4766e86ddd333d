#!/usr/bin/env python3
"""--shard K/N and `distlint merge` end to end (issue 14).

A project of 7 TUs (each with one finding; 4 of them include a header with
one more finding). For N in 1..4 the shards' reports are merged; the merged
JSON must be byte-identical to the unsharded report (header finding
deduplicated, fingerprints kept), every TU must be in exactly one shard, and
the split must be the same when run again. SARIF and text merges carry the
same findings. With costs recorded by a cached run, the shards are split by
cost and still cover every TU once. Bad inputs to merge exit 2 with one line.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from speedlib import Failures, make_project, run

NAMES = ("a", "b", "c", "d", "e", "f", "g")


def tus_of(report):
    return sorted({os.path.basename(f["file"]) for f in json.loads(report)["findings"]
                   if f["file"].endswith(".cpp")})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    a = ap.parse_args()
    distlint = os.path.abspath(a.distlint)
    F = Failures()
    tmp = tempfile.mkdtemp(prefix="distlint-shard-test-")
    try:
        project = os.path.join(tmp, "proj")
        make_project(project, names=NAMES, with_common=("a", "c", "e", "g"))
        full = run(distlint, project, "--no-cache")[0]
        doc = json.loads(full)
        F.check(len(doc["findings"]) == 8, "unsharded: 7 TU findings + 1 header finding",
                full)

        for mode, extra in (("no cache", ["--no-cache"]),
                            ("cost-balanced", ["--cache-dir", os.path.join(tmp, "cache")])):
            if mode == "cost-balanced":
                run(distlint, project, *extra)  # records each TU's cost
            for n in (1, 2, 3, 4):
                parts, seen = [], []
                for k in range(1, n + 1):
                    out, _, _ = run(distlint, project, "--shard", "%d/%d" % (k, n), *extra)
                    again, _, _ = run(distlint, project, "--shard", "%d/%d" % (k, n), *extra)
                    F.check(out == again, "%s: shard %d/%d is the same when run again" %
                            (mode, k, n))
                    path = os.path.join(tmp, "shard-%d-of-%d.json" % (k, n))
                    with open(path, "w") as fh:
                        fh.write(out)
                    parts.append(path)
                    seen += tus_of(out)
                F.check(sorted(seen) == ["%s.cpp" % x for x in NAMES],
                        "%s: %d shard(s) cover every TU exactly once" % (mode, n), str(seen))
                merged = subprocess.run([distlint, "merge", "--format=json"] + parts,
                                        capture_output=True, text=True)
                F.check(merged.returncode == 1 and merged.stdout == full,
                        "%s: merge of %d shard(s) is byte-identical to the unsharded "
                        "report" % (mode, n), merged.stderr + merged.stdout[:300])
            sizes = [len(tus_of(open(os.path.join(tmp, "shard-%d-of-4.json" % k)).read()))
                     for k in range(1, 5)]
            F.check(max(sizes) - min(sizes) <= 1 or mode == "cost-balanced",
                    "%s: 4 shards are balanced by count (%s)" % (mode, sizes))

        parts = [os.path.join(tmp, "shard-%d-of-2.json" % k) for k in (1, 2)]
        sarif = subprocess.run([distlint, "merge", "--format=sarif"] + parts,
                               capture_output=True, text=True)
        results = json.loads(sarif.stdout)["runs"][0]["results"] if sarif.stdout else []
        F.check(len(results) == 8 and all(r.get("partialFingerprints") for r in results),
                "merge --format=sarif: 8 results with fingerprints")
        fps = sorted(f["fingerprint"] for f in doc["findings"])
        F.check(sorted(list(r["partialFingerprints"].values())[0] for r in results) == fps,
                "SARIF fingerprints are the unsharded run's")
        text = subprocess.run([distlint, "merge", "--format=text"] + parts,
                              capture_output=True, text=True)
        F.check(text.stdout.count(": warning: ") == 8, "merge --format=text: 8 warnings",
                text.stdout)

        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as fh:
            fh.write("{not json")
        for args, what in (([bad], "malformed JSON"),
                           ([os.path.join(tmp, "missing.json")], "a missing file"),
                           (["--format=xml", parts[0]], "a bad --format"),
                           ([], "no inputs")):
            p = subprocess.run([distlint, "merge"] + args, capture_output=True, text=True)
            F.check(p.returncode == 2 and p.stderr.count("\n") == 1 and
                    p.stderr.startswith("distlint: error: "),
                    "merge with %s: exit 2, one line" % what, p.stderr)
        for bad_shard in ("0/4", "5/4", "x", "2/0"):
            p = subprocess.run([distlint, "-p", project, "--all", "--shard", bad_shard],
                               capture_output=True, text=True, cwd=project)
            F.check(p.returncode == 2 and "--shard" in p.stderr,
                    "--shard %s: exit 2 naming the option" % bad_shard, p.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return F.exit_code()


if __name__ == "__main__":
    sys.exit(main())
