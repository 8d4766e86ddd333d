"""Shared helpers of the issue-14 tests: a small MPI project with a compile
database, distlint runs that return (report, stats), loopback servers."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STANDIN = os.path.join(REPO, "testdata", "include")

COMMON_H = """#pragma once
#include "mpi.h"
inline void header_step() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
"""

# Each TU has one rank-divergent barrier (a finding), so a report shows
# which TUs it covers. a and b include common.h (one more finding, in the
# header), c does not.
TU = """// {name}: part of the cache test project
#include "mpi.h"
{extra}
void step_{name}() {{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}}
"""


def make_project(root, names=("a", "b", "c"), with_common=("a", "b")):
    os.makedirs(os.path.join(root, "src"), exist_ok=True)
    os.makedirs(os.path.join(root, "include"), exist_ok=True)
    with open(os.path.join(root, "include", "common.h"), "w") as fh:
        fh.write(COMMON_H)
    entries = []
    for n in names:
        extra = '#include "common.h"' if n in with_common else ""
        path = os.path.join(root, "src", n + ".cpp")
        with open(path, "w") as fh:
            fh.write(TU.format(name=n, extra=extra))
        entries.append({"directory": root, "file": path,
                        "arguments": ["clang++", "-std=c++17", "-I" + STANDIN,
                                      "-I" + os.path.join(root, "include"),
                                      "-c", path, "-o", n + ".o"]})
    with open(os.path.join(root, "compile_commands.json"), "w") as fh:
        json.dump(entries, fh, indent=1)
    # A git top-level makes the project root explicit.
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)


STATS = re.compile(r"result cache .*: (\d+) local hit\(s\), (\d+) remote hit\(s\), "
                   r"(\d+) miss\(es\), (\d+) stored")


def run(distlint, project, *args, check=True):
    """distlint -p project --all --format=json --verbose; returns
    (report text, stats dict or None, stderr)."""
    cmd = [distlint, "-p", project, "--all", "--format=json", "--verbose", "-j", "2"]
    cmd += list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=project, timeout=600)
    if check and p.returncode not in (0, 1):
        raise AssertionError("distlint failed (%d): %s\n%s" % (p.returncode, " ".join(cmd),
                                                               p.stderr))
    m = STATS.search(p.stderr)
    stats = None
    if m:
        stats = dict(zip(("local", "remote", "miss", "stored"), map(int, m.groups())))
    return p.stdout, stats, p.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError("server exited early")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("server did not listen on %d" % port)


class Failures:
    def __init__(self):
        self.items = []

    def check(self, ok, what, detail=""):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            self.items.append(what + (": " + detail if detail else ""))
        return ok

    def exit_code(self):
        if self.items:
            print("\n%d failure(s):\n  %s" % (len(self.items), "\n  ".join(self.items)))
            return 1
        return 0
