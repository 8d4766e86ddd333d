#!/usr/bin/env python3
"""CI lint stage outputs: SARIF fingerprints are stable, GitLab report valid.

SARIF: analyzes the example project (examples/, LibTorch) twice -- the
second time from a copy at another absolute path (another CI checkout) and
with another -j -- and requires identical (ruleId, uri, line,
partialFingerprints) for every result, repo-relative uris, and at least one
result (stability of nothing proves nothing). Without examples/ or LibTorch,
testdata programs stand in for the project.

The first run's SARIF is validated with Microsoft's SARIF multitool under
GitHub's rules (skipped only when npm cannot be reached).

GitLab: docs/ci/distlint-codequality.py turns the real JSON report into a
Code Quality report with the fields GitLab requires.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

CONVERTER = os.path.join(lib.REPO, "docs", "ci", "distlint-codequality.py")
TIMEOUT = 600


def run(cmd, cwd, ok=(0,)):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode not in ok:
        raise AssertionError("%s -> %d\n%s%s" % (" ".join(cmd), p.returncode,
                                                 p.stdout[-3000:], p.stderr[-3000:]))
    return p


def make_checkout(tmp, name, use_examples):
    """A git checkout holding the project; returns (root, distlint args)."""
    root = os.path.join(tmp, name, "repo")
    os.makedirs(root)
    run(["git", "init", "-q"], root)
    if use_examples:
        shutil.copytree(os.path.join(lib.REPO, "examples"), os.path.join(root, "examples"))
        build = os.path.join(root, "build")
        run(["cmake", "-S", "examples", "-B", build,
             "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], root)
        return root, ["-p", build, "--all"]
    # Stand-in project: up to ten buggy testdata programs sharing flags, with
    # their directories' local headers.
    cases = [c for c in lib.testdata_cases() if "buggy" in os.path.basename(c)]
    by_flags = {}
    for c in cases:
        by_flags.setdefault(tuple(lib.compile_flags(c)), []).append(c)
    flags, files = max(by_flags.items(), key=lambda kv: len(kv[1]))
    # The API headers travel with the project, so every path is inside it.
    shutil.copytree(os.path.join(lib.REPO, "testdata", "include"),
                    os.path.join(root, "testdata", "include"))
    flags = [x.replace(lib.REPO, root) for x in flags]
    entries = []
    for f in files[:10]:
        rel = os.path.relpath(f, lib.REPO)
        dst = os.path.join(root, rel)
        if not os.path.isdir(os.path.dirname(dst)):
            shutil.copytree(os.path.dirname(f), os.path.dirname(dst))
        entries.append({"directory": root, "file": dst,
                        "arguments": ["c++"] + list(flags) + ["-c", dst]})
    os.makedirs(os.path.join(root, "build"))
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as fp:
        json.dump(entries, fp)
    return root, ["-p", os.path.join(root, "build"), "--all"]


def sarif_results(distlint, root, args, jobs, ok):
    out = os.path.join(root, "distlint.sarif")
    run([distlint, "--format=sarif", "--output", out, "-j", str(jobs)] + args,
        root, ok=ok)
    with open(out) as f:
        sarif = json.load(f)
    keys = []
    for r in sarif["runs"][0].get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        assert not uri.startswith(("/", "file:")) and "uriBaseId" in loc["artifactLocation"], \
            "uri not repo-relative: %s" % loc["artifactLocation"]
        assert r.get("partialFingerprints"), "result without partialFingerprints: %s" % r
        keys.append((r["ruleId"], uri, loc["region"]["startLine"],
                     json.dumps(r["partialFingerprints"], sort_keys=True)))
    return sorted(keys)


def validate_sarif(sarif, tmp):
    """The project's SARIF under GitHub's rules (Microsoft's multitool, as
    in the driver's SARIF test); skipped only when npm is unreachable."""
    p = subprocess.run(["bash", os.path.join(lib.REPO, "scripts", "install-sarif-multitool.sh")],
                       capture_output=True, text=True)
    if p.returncode == 3:
        print("note: SARIF multitool not installable; validation skipped\n" + p.stderr)
        return
    assert p.returncode == 0, "install-sarif-multitool.sh failed:\n" + p.stderr
    tool = p.stdout.strip().splitlines()[-1]
    log = os.path.join(tmp, "validation.sarif")
    # (multitool 5.x has no --force: the log must not exist yet.)
    if os.path.exists(log):
        os.remove(log)
    v = subprocess.run([tool, "validate", "--rule-kind", "Gh;Sarif", "--output", log,
                        sarif], capture_output=True, text=True, timeout=TIMEOUT)
    assert os.path.isfile(log), "multitool wrote no log (exit %d):\n%s%s" % (
        v.returncode, v.stdout[-3000:], v.stderr[-2000:])
    with open(log) as f:
        results = json.load(f)["runs"][0].get("results", [])
    errors = [r for r in results if r.get("level", "warning") == "error"]
    assert not errors and v.returncode == 0, "SARIF validation errors:\n%s\n%s" % (
        json.dumps(errors, indent=1)[:4000], v.stdout[-2000:])
    print("ok: the project's SARIF validates (multitool, rule kinds Gh;Sarif)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--project", choices=["auto", "examples", "testdata"], default="auto")
    args = ap.parse_args()
    distlint = os.path.realpath(args.distlint)

    use_examples = args.project == "examples"
    if args.project == "auto":
        use_examples = (os.path.isfile(os.path.join(lib.REPO, "examples", "CMakeLists.txt"))
                        and bool(glob.glob("/usr/share/cmake/Torch/TorchConfig.cmake")
                                 + glob.glob("/usr/lib/*/cmake/Torch/TorchConfig.cmake")
                                 + glob.glob("/usr/share/*/cmake/Torch/TorchConfig.cmake")))
    print("project: " + ("examples/" if use_examples else "testdata stand-in"))

    tmp = tempfile.mkdtemp(prefix="distlint-ci-")
    try:
        root1, args1 = make_checkout(tmp, "first", use_examples)
        root2, args2 = make_checkout(tmp, "second-checkout", use_examples)
        # The example project must analyze cleanly; a stand-in testdata
        # program that does not parse (work in progress elsewhere) is an
        # error of that file, not of the fingerprints.
        ok = (0, 1) if use_examples else (0, 1, 2)
        first = sarif_results(distlint, root1, args1, jobs=1, ok=ok)
        second = sarif_results(distlint, root2, args2, jobs=2, ok=ok)
        for k in first:
            print("  %s %s:%d %s" % k)
        assert first, "no SARIF results on the project: fingerprint stability untested"
        assert first == second, "fingerprints differ between runs:\n%s\n%s" % (first, second)
        fps = [k[3] for k in first]
        assert len(set(fps)) == len(fps), "two results share a fingerprint: %s" % first
        print("ok: %d results, identical fingerprints across checkouts and -j" % len(first))

        validate_sarif(os.path.join(root1, "distlint.sarif"), tmp)

        # GitLab Code Quality from the same project's JSON.
        # Only the files with findings: each LibTorch TU costs 10-15 s.
        files = sorted({os.path.join(root1, k[1]) for k in first})
        out = run([distlint, "--format=json", "-p", args1[1]] + files, root1,
                  ok=ok).stdout
        report = json.loads(out)
        conv = subprocess.run([sys.executable, CONVERTER, "-", "--root", root1],
                              input=out, capture_output=True, text=True, check=True)
        issues = json.loads(conv.stdout)
        assert len(issues) == len(report["findings"]) + len(report.get("errors", [])), issues
        assert issues, "no Code Quality issues"
        for i in issues:
            for field in ("description", "check_name", "fingerprint", "severity"):
                assert isinstance(i.get(field), str) and i[field], (field, i)
            assert i["severity"] in ("info", "minor", "major", "critical", "blocker"), i
            assert not os.path.isabs(i["location"]["path"]), i
            assert os.path.isfile(os.path.join(root1, i["location"]["path"])), i
            assert isinstance(i["location"]["lines"]["begin"], int), i
        assert len({i["fingerprint"] for i in issues}) == len(issues), "fingerprints not unique"
        print("ok: %d Code Quality issues with GitLab's required fields" % len(issues))
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
