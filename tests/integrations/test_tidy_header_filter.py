#!/usr/bin/env python3
"""The clang-tidy plugin honours -header-filter like built-in checks, and
its fix-its reach clang-tidy's --export-fixes.

A header with a rank-divergent barrier is included by a main file whose own
finding has notes in the main file. clang-tidy alone would keep the header's
finding whenever a note is in the main file; the plugin must report it only
when -header-filter matches the header (and -exclude-header-filter does
not).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

# The header's finding has notes in the main file (where the rank comes
# from and is passed in): the case clang-tidy's own filter lets through.
HEADER = """#pragma once
#include <mpi.h>
inline void only_rank0_barrier(int rank) {
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
"""
MAIN = """#include "sync_helpers.h"
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  only_rank0_barrier(rank);
  if (rank == 1)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang-tidy", required=True)
    ap.add_argument("--plugin", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        inc = os.path.join(tmp, "include")
        os.makedirs(inc)
        with open(os.path.join(inc, "sync_helpers.h"), "w") as f:
            f.write(HEADER)
        main_cpp = os.path.join(tmp, "main.cpp")
        with open(main_cpp, "w") as f:
            f.write(MAIN)
        flags = ["--", "-std=c++17", "-I" + inc,
                 "-I" + os.path.join(lib.REPO, "testdata", "include")]

        def tidy(*extra):
            p = subprocess.run([args.clang_tidy, "-load", args.plugin,
                                "-checks=-*,distlint-*"] + list(extra) + [main_cpp] + flags,
                               capture_output=True, text=True, timeout=300)
            warnings = [l for l in p.stdout.splitlines() if ": warning: " in l]
            return p, warnings

        failures = []

        def expect(extra, want_header):
            p, warnings = tidy(*extra)
            in_header = any("sync_helpers.h:5:" in w for w in warnings)
            in_main = any("main.cpp:8:" in w for w in warnings)
            ok = in_main and in_header == want_header
            print("%s %s: %s" % ("ok" if ok else "FAIL", " ".join(extra) or "(no filter)",
                                 warnings))
            if not ok:
                failures.append((extra, p.stdout + p.stderr))

        expect([], False)                      # clang-tidy's default: no headers
        expect(["-header-filter=nomatch"], False)
        expect(["-header-filter=.*"], True)
        expect(["-header-filter=sync_helpers"], True)
        expect(["-header-filter=.*", "-exclude-header-filter=sync_"], False)

        fixes = os.path.join(tmp, "fixes.yaml")
        timeout_src = os.path.join(lib.REPO, "testdata", "timeout",
                                   "unusable_timeout_values_buggy.cpp")
        subprocess.run([args.clang_tidy, "-load", args.plugin, "-checks=-*,distlint-*",
                        "--export-fixes=" + fixes, timeout_src] + flags,
                       capture_output=True, text=True, timeout=300)
        with open(fixes) as f:
            text = f.read()
        ok = "ReplacementText: 'std::chrono::minutes(5)'" in text
        print("%s plugin fix-its in --export-fixes" % ("ok" if ok else "FAIL"))
        if not ok:
            failures.append(("export-fixes", text))
        for extra, out in failures:
            print("--- %s\n%s" % (extra, out))
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
