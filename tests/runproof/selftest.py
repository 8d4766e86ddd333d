#!/usr/bin/env python3
"""The run-proof driver must fail on wrong labels (both directions) and kill
hanging jobs completely."""
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main():
    work = sys.argv[1] if len(sys.argv) > 1 else None
    base = [sys.executable, str(HERE / "runproof.py"), "--repo",
            str(HERE.parent.parent), "--timeout", "3"]
    if work:
        base += ["--work", work]
    failures = 0
    for case in sorted((HERE / "selftest").glob("*.cpp")):
        proc = subprocess.run(base + [str(case)], capture_output=True, text=True)
        print(proc.stdout.strip())
        if proc.returncode == 77:
            print("SKIPPED: MPI not installed")
            return 77
        if proc.returncode != 1 or "FAIL" not in proc.stdout:
            print("selftest FAILED: %s was accepted (exit %d)" % (
                case.name, proc.returncode))
            failures += 1
    # No process of a killed job may survive.
    left = subprocess.run(["pgrep", "-f", "hangs_but_labelled_clean-"],
                          capture_output=True, text=True).stdout.split()
    left = [p for p in left if int(p) != os.getpid()]
    if left:
        print("selftest FAILED: processes left behind: %s" % " ".join(left))
        failures += 1
    print("runproof selftest: %s" % ("FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
