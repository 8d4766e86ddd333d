#!/usr/bin/env python3
"""The pre-commit hook refuses a defective commit and accepts a clean one.

Builds a throw-away git repository with a small MPI project and a
compile_commands.json under build/, installs the hook from this checkout's
.pre-commit-hooks.yaml with the real `pre-commit` tool (Debian package), and
commits through it:
  1. a clean initial commit passes;
  2. a rank-divergent barrier staged -> commit refused, the finding printed;
  3. the same defect committed with --no-verify, then an unrelated edit
     elsewhere -> commit passes (only changed lines are reported);
  4. six defective files staged at once -> pre-commit splits them across
     parallel hook calls (on >= 2 CPUs) and every finding is still reported;
  5. the fix commits cleanly;
  6. a header-only change that adds a rank-divergent barrier to a header
     (its caller, a .cpp of the database, is unchanged) -> refused, the
     header's line printed;
  7. `pre-commit run --all-files` fails on a defect committed earlier with
     --no-verify (all lines of all files are checked).
Without pre-commit installed, the entry script is driven directly the way
pre-commit calls it (staged files of the hook's types as arguments).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

RULE = "distlint-rank-divergent-collective"

CLEAN = """\
#include <mpi.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local = rank, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
"""
HEADER_CLEAN = """\
#pragma once
#include <mpi.h>

inline void sync_point() {
  MPI_Barrier(MPI_COMM_WORLD);
}
"""
HEADER_DEFECT = """\
#pragma once
#include <mpi.h>

inline void sync_point() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // only rank 0 waits
}
"""
USES_HEADER = """\
#include "sync.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  sync_point();
  MPI_Finalize();
  return 0;
}
"""
DEFECT = "  if (rank == 0)\n    MPI_Barrier(MPI_COMM_WORLD); // only rank 0 waits\n"
ANCHOR = "  MPI_Finalize();\n"


def defective(text):
    assert ANCHOR in text
    return text.replace(ANCHOR, DEFECT + ANCHOR)


def defect_line(text):
    for number, line in enumerate(text.splitlines(), 1):
        if "MPI_Barrier" in line:
            return number
    raise AssertionError("no defect in text")


class Failure(Exception):
    pass


def check(cond, message, output=""):
    if not cond:
        raise Failure(message + ("\n--- output ---\n" + output if output else ""))
    print("ok: " + message)


def run(cmd, cwd, env, expect_rc=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=300)
    out = p.stdout + p.stderr
    if expect_rc is not None and p.returncode != expect_rc:
        raise Failure("%s exited %d (expected %d)\n%s"
                      % (" ".join(cmd), p.returncode, expect_rc, out))
    return p.returncode, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--without-pre-commit", action="store_true",
                    help="drive the entry script directly even if pre-commit exists")
    args = ap.parse_args()
    distlint = os.path.realpath(args.distlint)
    precommit = None if args.without_pre_commit else shutil.which("pre-commit")

    tmp = tempfile.mkdtemp(prefix="distlint-precommit-")
    try:
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t",
                   PRE_COMMIT_HOME=os.path.join(tmp, "cache"),
                   GIT_CONFIG_NOSYSTEM="1", HOME=tmp)
        env.pop("PRE_COMMIT_NO_CONCURRENCY", None)
        # Every call of distlint is logged, to see pre-commit's parallel split.
        calls = os.path.join(tmp, "calls.log")
        wrapper = os.path.join(tmp, "distlint-wrapper")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\necho \"$$ $*\" >> %s\nexec %s \"$@\"\n" % (calls, distlint))
        os.chmod(wrapper, 0o755)
        env["DISTLINT"] = wrapper

        # The hook repository: this checkout's hook files at one commit.
        hooks = os.path.join(tmp, "hooks")
        os.makedirs(os.path.join(hooks, "scripts"))
        shutil.copy(os.path.join(lib.REPO, ".pre-commit-hooks.yaml"), hooks)
        shutil.copy(os.path.join(lib.REPO, "scripts", "precommit-distlint"),
                    os.path.join(hooks, "scripts"))
        run(["git", "init", "-q"], hooks, env, 0)
        run(["git", "add", "."], hooks, env, 0)
        run(["git", "commit", "-q", "-m", "hooks"], hooks, env, 0)
        rev = run(["git", "rev-parse", "HEAD"], hooks, env, 0)[1].strip()

        proj = os.path.join(tmp, "proj")
        src = os.path.join(proj, "src")
        os.makedirs(src)
        os.makedirs(os.path.join(proj, "build"))
        names = ["train.cpp"] + ["worker%d.cpp" % i for i in range(6)]
        for name in names:
            with open(os.path.join(src, name), "w") as f:
                f.write(CLEAN)
        with open(os.path.join(src, "sync.h"), "w") as f:
            f.write(HEADER_CLEAN)
        with open(os.path.join(src, "uses_sync.cpp"), "w") as f:
            f.write(USES_HEADER)
        flags = "-std=c++17 -I" + os.path.join(lib.REPO, "testdata", "include")
        with open(os.path.join(proj, "build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": proj, "file": "src/" + n,
                        "command": "c++ %s -c src/%s -o %s.o" % (flags, n, n)}
                       for n in names + ["uses_sync.cpp"]], f, indent=1)
        with open(os.path.join(proj, ".gitignore"), "w") as f:
            f.write("build/\n")
        with open(os.path.join(proj, ".pre-commit-config.yaml"), "w") as f:
            f.write("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n"
                    "      - id: distlint\n" % (hooks, rev))
        run(["git", "init", "-q"], proj, env, 0)

        def commit(message):
            if precommit:
                return run(["git", "commit", "-q", "-m", message], proj, env)
            # Same call pre-commit makes: the entry with the staged files.
            staged = run(["git", "diff", "--cached", "--name-only",
                          "--diff-filter=ACMR"], proj, env, 0)[1].split()
            staged = [s for s in staged if s.endswith((".cpp", ".c", ".cu", ".h"))]
            rc, out = 0, ""
            if staged:
                rc, out = run([os.path.join(hooks, "scripts", "precommit-distlint")]
                              + staged, proj, env)
            if rc == 0:
                run(["git", "commit", "-q", "--no-verify", "-m", message], proj, env, 0)
            return rc, out

        if precommit:
            print("using " + run([precommit, "--version"], proj, env, 0)[1].strip())
            run([precommit, "install"], proj, env, 0)
        else:
            print("pre-commit not used: driving scripts/precommit-distlint directly")

        def head_subject():
            return run(["git", "log", "-1", "--format=%s"], proj, env, 0)[1].strip()

        # 1. Clean initial commit.
        run(["git", "add", "."], proj, env, 0)
        rc, out = commit("initial")
        check(rc == 0 and head_subject() == "initial", "clean initial commit accepted", out)

        # 2. A defect staged: refused, with the finding.
        train = os.path.join(src, "train.cpp")
        bad = defective(CLEAN)
        with open(train, "w") as f:
            f.write(bad)
        run(["git", "add", "src/train.cpp"], proj, env, 0)
        rc, out = commit("add rank-0 barrier")
        print("  " + "\n  ".join(out.strip().splitlines()))
        want = "src/train.cpp:%d:" % defect_line(bad)
        check(rc != 0 and head_subject() == "initial", "defective commit refused", out)
        check(want in out and "[%s]" % RULE in out,
              "refusal shows the finding (%s ... [%s])" % (want, RULE), out)

        # 3. Defect already committed; an unrelated edit elsewhere passes.
        run(["git", "commit", "-q", "--no-verify", "-m", "defect"], proj, env, 0)
        edited = bad.replace("int main(", "// entry point\nint main(")
        with open(train, "w") as f:
            f.write(edited)
        run(["git", "add", "src/train.cpp"], proj, env, 0)
        rc, out = commit("comment only")
        check(rc == 0 and head_subject() == "comment only",
              "edit away from an old finding commits (changed lines only)", out)

        # 4. Six defective files at once: all findings, however split.
        open(calls, "w").close()
        for i in range(6):
            with open(os.path.join(src, "worker%d.cpp" % i), "w") as f:
                f.write(bad)
        run(["git", "add", "src"], proj, env, 0)
        rc, out = commit("six workers")
        check(rc != 0 and head_subject() == "comment only", "six defective files refused", out)
        for i in range(6):
            check("src/worker%d.cpp:%d:" % (i, defect_line(bad)) in out,
                  "finding in worker%d.cpp reported" % i, out)
        with open(calls) as f:
            invocations = [l for l in f.read().splitlines() if l.strip()]
        if precommit and (os.cpu_count() or 1) >= 2:
            check(len(invocations) >= 2,
                  "pre-commit split the files over %d parallel hook calls"
                  % len(invocations), "\n".join(invocations))
        else:
            print("note: %d hook call(s); the split needs pre-commit and >= 2 CPUs"
                  % len(invocations))

        # 5. Fix everything: commits.
        for name in names:
            with open(os.path.join(src, name), "w") as f:
                f.write(CLEAN)
        run(["git", "add", "src"], proj, env, 0)
        rc, out = commit("fix")
        check(rc == 0 and head_subject() == "fix", "fixed change commits", out)

        # 6. Only the header changes: checked through uses_sync.cpp.
        with open(os.path.join(src, "sync.h"), "w") as f:
            f.write(HEADER_DEFECT)
        run(["git", "add", "src/sync.h"], proj, env, 0)
        rc, out = commit("header-only change")
        print("  " + "\n  ".join(out.strip().splitlines()))
        want = "src/sync.h:%d:" % defect_line(HEADER_DEFECT)
        check(rc != 0 and head_subject() == "fix", "header-only defect refused", out)
        check(want in out and "[%s]" % RULE in out,
              "refusal shows the header's finding (%s)" % want, out)

        # 7. --all-files: every line of every file, old defects included.
        run(["git", "commit", "-q", "--no-verify", "-m", "header defect"], proj, env, 0)
        if precommit:
            rc, out = run([precommit, "run", "--all-files"], proj, env)
        else:
            tracked = run(["git", "ls-files"], proj, env, 0)[1].split()
            rc, out = run([os.path.join(hooks, "scripts", "precommit-distlint")]
                          + [t for t in tracked if t.endswith((".cpp", ".h"))], proj, env)
        check(rc != 0 and want in out, "--all-files fails on a committed defect", out)
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
