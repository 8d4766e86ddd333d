#!/usr/bin/env python3
"""The clang-tidy plugin and the standalone binary agree on testdata.

Runs Debian's clang-tidy-19 with `-load libdistlint-tidy.so
-checks='-*,distlint-*'` and `distlint --format=json` on every testdata
program with the harness's flags, and compares the findings as
file:line:rule (and each finding's notes as file:line). Fails on any
difference, and also when neither tool found anything at all: an
empty-vs-empty comparison proves nothing. clang-tidy has no shared
preambles and is the slow side: the default CI run compares one in
TIDY_EVERY programs of each flag set (findings in those files);
DISTLINT_HEAVY=1 compares all of them. One more input checks that
user-declared rank sources reach the rules in both front ends
(.distlint.yaml vs CheckOptions distlint.RankSources).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402


# One in TIDY_EVERY programs of each flag set goes through clang-tidy in the
# default run (the 30-minute CI budget); DISTLINT_HEAVY=1 compares all.
TIDY_EVERY = 4


def finding_keys(findings, only_files=None):
    keys = collections.Counter()
    for f in findings:
        if only_files is not None and os.path.realpath(f["file"]) not in only_files:
            continue
        notes = tuple(sorted((os.path.realpath(n["file"]), n["line"])
                             for n in f.get("notes", [])))
        keys[(os.path.realpath(f["file"]), f["line"], f["rule"], notes)] += 1
    return keys


def run_distlint(args, files, flags):
    # One run per flag set on shared preambles, saved for (or reused from)
    # testdata.shared_preambles, which checks it against the runs without.
    run = lib.shared_run(args.distlint, files, flags, args.distlint_reports,
                         args.timeout)
    if run["report"] is None:
        raise RuntimeError("distlint failed (%d): %s\n%s" %
                           (run["exit"], " ".join(files), run["stderr"]))
    return run["report"]["findings"], run["report"].get("errors", [])


def run_clang_tidy(args, files, flags):
    cmd = [args.clang_tidy, "-load", args.plugin, "-checks=-*,distlint-*",
           "--header-filter=.*", "--quiet"] + files + ["--"] + flags
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    if "Unknown command line argument" in p.stderr or "Could not load" in p.stderr:
        raise RuntimeError("clang-tidy could not run the plugin:\n" + p.stderr)
    findings, errors = lib.parse_clang_text(p.stdout)
    return findings, errors


def run_user_config_case(args):
    """User-declared rank sources reach the rules in both front ends: with
    the setting both report the `// expect:` finding, without it neither."""
    case = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs",
                        "user_rank_source.cpp")
    flags = lib.compile_flags(case)
    expected = collections.Counter(
        (case, line, rule) for line, rule in lib.expectations(case)[0])
    tmp = tempfile.mkdtemp(prefix="distlint-tidy-config-")
    try:
        cfg = os.path.join(tmp, "distlint.yaml")
        with open(cfg, "w") as f:
            f.write("RankSources: [cluster::whoami]\n")
        ok = True
        for label, extra_ours, extra_theirs, want in (
                ("with RankSources", ["--config-file=" + cfg],
                 ["-config={CheckOptions: {distlint.RankSources: 'cluster::whoami'}}"],
                 expected),
                ("without", [], [], collections.Counter())):
            a = args.distlint
            p = subprocess.run([a, "--format=json", "--quiet"] + extra_ours + [case, "--"] + flags,
                               capture_output=True, text=True, timeout=args.timeout)
            ours = collections.Counter((os.path.realpath(f["file"]), f["line"], f["rule"])
                                       for f in json.loads(p.stdout)["findings"])
            p = subprocess.run([args.clang_tidy, "-load", args.plugin, "-checks=-*,distlint-*",
                                "--quiet"] + extra_theirs + [case, "--"] + flags,
                               capture_output=True, text=True, timeout=args.timeout)
            theirs = collections.Counter((f["file"], f["line"], f["rule"])
                                         for f in lib.parse_clang_text(p.stdout)[0])
            good = ours == theirs == want
            ok &= good
            print("%s user config %s: distlint %s, clang-tidy %s, expected %s"
                  % ("ok:" if good else "FAIL:", label, sorted(ours), sorted(theirs), sorted(want)))
        return ok
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--testdata", default=os.path.join(lib.REPO, "testdata"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--distlint-reports",
                    help="directory where the distlint runs are saved for "
                         "testdata.shared_preambles")
    args = ap.parse_args()
    args.distlint = os.path.realpath(args.distlint)

    # The plugin must take clang-tidy's machinery from the executable, not
    # carry its own copy (a static clangTidy would have its own registry).
    if shutil.which("nm"):
        syms = subprocess.run(["nm", "-DC", "--defined-only", args.plugin],
                              capture_output=True, text=True).stdout
        own = [l for l in syms.splitlines()
               if "clang::tidy::ClangTidyCheck::ClangTidyCheck(" in l
               or "clang::tidy::ClangTidyContext::ClangTidyContext(" in l]
        if own:
            print("FAIL: the plugin defines clang-tidy's own classes "
                  "(static clangTidy linked?):\n" + "\n".join(own))
            return 1

    # One run of each tool per distinct flag set (files sharing flags share
    # a command line), spread over two workers.
    groups = collections.defaultdict(list)
    for case in lib.testdata_cases(args.testdata):
        groups[tuple(lib.compile_flags(case))].append(case)
    if not groups:
        print("FAIL: no testdata programs under " + args.testdata)
        return 1

    # distlint runs every program (its runs are saved for
    # testdata.shared_preambles); the comparison covers the sampled ones.
    every = 1 if os.environ.get("DISTLINT_HEAVY", "0") == "1" else TIDY_EVERY
    sampled = {flags: files[::every] for flags, files in groups.items()}
    compared = {os.path.realpath(f) for files in sampled.values() for f in files}
    ours, theirs = collections.Counter(), collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = []
        for flags, files in groups.items():
            jobs.append(("distlint", pool.submit(run_distlint, args, files, list(flags))))
            jobs.append(("clang-tidy",
                         pool.submit(run_clang_tidy, args, sampled[flags], list(flags))))
        for tool, job in jobs:
            findings, errors = job.result()
            for e in errors:
                print("note: %s reported an error: %s" % (tool, e))
            (ours if tool == "distlint" else theirs).update(
                finding_keys(findings, compared))

    ncases = sum(len(v) for v in groups.values())
    print("%d testdata programs, %d compared%s; distlint: %d findings, "
          "clang-tidy plugin: %d" % (ncases, len(compared),
                                     "" if every == 1 else
                                     " (one in %d; DISTLINT_HEAVY=1: all)" % every,
                                     sum(ours.values()), sum(theirs.values())))
    ok = True
    for key in sorted((ours - theirs).keys()):
        print("only distlint:   %s:%d: [%s] notes=%s" % key)
        ok = False
    for key in sorted((theirs - ours).keys()):
        print("only clang-tidy: %s:%d: [%s] notes=%s" % key)
        ok = False
    if not ours and not theirs:
        print("FAIL: neither tool reported any finding on testdata; "
              "the comparison would prove nothing")
        return 1
    ok &= run_user_config_case(args)
    print("PASS: findings agree" if ok else "FAIL: findings differ")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
