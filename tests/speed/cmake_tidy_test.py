#!/usr/bin/env python3
"""The CMake route (issue 14): distlint's clang-tidy plugin inside the build.

Configures examples/ with Ninja and
  CMAKE_CXX_CLANG_TIDY="clang-tidy-19;-load=libdistlint-tidy.so;-checks=-*,distlint-*"
builds it, and checks that
  - the build succeeds and its log carries the plugin's findings: exactly the
    (file, line, rule) set `distlint -p <build> --all` reports for the same
    TUs, none for the fixed trainer;
  - with --warnings-as-errors=distlint-* the build fails on them;
  - with CMake >= 3.26, CMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR receives one
    YAML file per TU naming the distlint findings (CMake 3.25, Debian 12's,
    does not know the variable: that check is reported as skipped).
Exit 77 when LibTorch, clang-tidy-19 or Ninja is missing.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from speedlib import REPO, Failures

SKIP = 77
FINDING = re.compile(r"^(/[^:\s]+):(\d+):\d+: (warning|error): .*\[(distlint-[a-z-]+)")


def build_log_findings(log):
    out = set()
    for line in log.splitlines():
        m = FINDING.match(line)
        if m:
            out.add((os.path.basename(m.group(1)), int(m.group(2)), m.group(4)))
    return out


def cmake_version():
    out = subprocess.run(["cmake", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def configure_and_build(build, tidy, export_dir=None, target=None):
    shutil.rmtree(build, ignore_errors=True)
    args = ["cmake", "-S", os.path.join(REPO, "examples"), "-B", build, "-G", "Ninja",
            "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_CLANG_TIDY=" + ";".join(tidy)]
    if shutil.which("ccache"):
        args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    if export_dir:
        args.append("-DCMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR=" + export_dir)
    c = subprocess.run(args, capture_output=True, text=True)
    if c.returncode != 0:
        return c.returncode, c.stdout + c.stderr
    b = subprocess.run(["cmake", "--build", build, "-j", "2"] +
                       (["--target", target] if target else []) + ["--", "-k", "0"],
                       capture_output=True, text=True)
    return b.returncode, b.stdout + b.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    a = ap.parse_args()
    for tool in (a.clang_tidy, "ninja"):
        if not shutil.which(tool):
            print("SKIPPED: %s not found" % tool)
            return SKIP
    if not os.path.isdir("/usr/include/torch") and not os.environ.get("Torch_DIR"):
        print("SKIPPED: LibTorch (libtorch-dev) not installed")
        return SKIP
    F = Failures()
    tmp = tempfile.mkdtemp(prefix="distlint-cmake-tidy-")
    try:
        tidy = [shutil.which(a.clang_tidy), "-load=" + os.path.abspath(a.plugin),
                "-checks=-*,distlint-*"]
        export = os.path.join(tmp, "fixes")
        build = os.path.join(tmp, "build")
        rc, log = configure_and_build(build, tidy, export)
        F.check(rc == 0, "examples/ builds with CMAKE_CXX_CLANG_TIDY (findings are warnings)",
                log[-2000:])
        in_log = build_log_findings(log)
        p = subprocess.run([a.distlint, "-p", build, "--all", "--format=json", "--no-cache"],
                           capture_output=True, text=True)
        try:
            report = json.loads(p.stdout)
        except ValueError:
            report = {"findings": []}
        direct = {(os.path.basename(f["file"]), f["line"], f["rule"])
                  for f in report["findings"]}
        F.check(len(in_log) >= 3, "the build log carries distlint findings (%d)" % len(in_log),
                log[-2000:])
        F.check(in_log == direct,
                "they are exactly distlint's own findings on those TUs",
                "only in the log: %s; only from distlint: %s" % (sorted(in_log - direct),
                                                                  sorted(direct - in_log)))
        F.check(not any(f.startswith("train_ddp_fixed") for f, _, _ in in_log),
                "none for the fixed trainer")
        if cmake_version() >= (3, 26):
            yamls = [f for f in os.listdir(export)] if os.path.isdir(export) else []
            text = "".join(open(os.path.join(export, f)).read() for f in yamls)
            F.check(len(yamls) == 2 and "DiagnosticName:  distlint-" in text,
                    "CMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR holds one YAML per TU", str(yamls))
        else:
            print("skip CMAKE_CXX_CLANG_TIDY_EXPORT_FIXES_DIR: CMake %d.%d < 3.26 ignores it"
                  % cmake_version())

        # One target is enough to fail the build (and costs half).
        rc, log = configure_and_build(os.path.join(tmp, "build-werror"),
                                      tidy + ["--warnings-as-errors=distlint-*"],
                                      target="ddp_trainer")
        F.check(rc != 0, "with --warnings-as-errors=distlint-* the build fails")
        F.check(re.search(r"error: .*\[distlint-[a-z-]+,-warnings-as-errors\]", log)
                is not None, "and the log says which finding failed it", log[-2000:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return F.exit_code()


if __name__ == "__main__":
    sys.exit(main())
