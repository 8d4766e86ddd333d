#!/usr/bin/env python3
"""Tests the packages CPack makes (cmake/Packaging.cmake) the way users get them.

  package_test.py tarball --build B --repo R --distlint BIN --work W [--with-runtime]
  package_test.py deb     --build B --repo R --distlint BIN --work W --cache C [--with-runtime]

tarball: the .tar.gz unpacked into a new directory (with a space in its path)
  must work on its own: builtin headers, OpenMP's omp.h, the CUDA shim and
  distlint-rt's preload library are found relative to the binaries; the
  findings equal the build tree's; man pages and bash completion are there.
deb (heavy, DISTLINT_HEAVY=1, root): a clean Debian 12 root from debootstrap
  (cached as a tar in C), `apt-get install ./distlint_*.deb` in it, then
  `distlint-rt run` on an MPI program (the MPI runtime comes with the
  package's Recommends, which apt installs by default), then the shipped
  example (/usr/share/doc/distlint/examples) configured with the LibTorch a
  user of that example installs, analyzed: same findings as the build tree.

Exit: 0 pass, 1 fail, 77 skipped (not heavy, not root, tools missing).
"""
import argparse
import collections
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "testdata_harness"))
sys.path.insert(0, os.path.join(HERE, "..", "runproof"))
import harness  # noqa: E402
import runproof  # noqa: E402

SKIP = 77
MIRROR = os.environ.get("DISTLINT_DEBIAN_MIRROR", "http://deb.debian.org/debian")
SUITE = "bookworm"
# A testdata program whose `distlint-rt run` must report a hang: rank 1
# leaves the loop early, rank 0 waits in the next all-reduce alone.
MPI_PROGRAM = "testdata/rank-divergent/mpi/break_in_loop_buggy.cpp"


class Failure(Exception):
    pass


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    return subprocess.run(cmd, **kw)


def must(cmd, what, **kw):
    p = run(cmd, **kw)
    if p.returncode != 0:
        raise Failure("%s failed (exit %d): %s\n%s%s" % (
            what, p.returncode, " ".join(cmd), p.stdout[-3000:], p.stderr[-3000:]))
    return p


def check(cond, message):
    if not cond:
        raise Failure(message)


def cpack(build, generator, outdir):
    os.makedirs(outdir, exist_ok=True)
    start = time.monotonic()
    must(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-G",
          generator, "-B", outdir], "cpack -G " + generator)
    pattern = "*.deb" if generator == "DEB" else "*.tar.gz"
    found = glob.glob(os.path.join(outdir, pattern))
    check(len(found) == 1, "cpack -G %s made %s" % (generator, found))
    print("cpack -G %s: %s (%.1f MB) in %.0fs" % (
        generator, os.path.basename(found[0]), os.path.getsize(found[0]) / 1e6,
        time.monotonic() - start))
    return found[0]


def findings(stdout, what):
    try:
        doc = json.loads(stdout)
    except ValueError:
        raise Failure("%s: no JSON report:\n%s" % (what, stdout[-2000:]))
    check(not doc.get("errors"), "%s: compile errors: %s" % (what, doc.get("errors")))
    return collections.Counter((os.path.basename(f["file"]), f["line"], f["rule"],
                                f["message"]) for f in doc["findings"])


def expected_of(path):
    ex = harness.parse(path)
    return collections.Counter({(os.path.basename(path), line, rule): n
                                for (line, rule, _), n in ex.findings.items()})


def without_messages(counter):
    out = collections.Counter()
    for (name, line, rule, _), n in counter.items():
        out[(name, line, rule)] += n
    return out


def runpath(binary):
    p = run(["readelf", "-d", binary])
    for line in p.stdout.splitlines():
        if "RUNPATH" in line or "RPATH" in line:
            return line.split("[", 1)[1].rstrip("]")
    return ""


def mpi_compile_flags():
    mpicc = shutil.which("mpicc")
    if not mpicc:
        return None
    return run([mpicc, "--showme:compile"]).stdout.split()


def build_mpi_program(repo, work):
    mpicxx = shutil.which("mpicxx")
    if not mpicxx:
        return None
    out = os.path.join(work, "mpi_program")
    must([mpicxx, "-std=c++17", "-O1", "-o", out, os.path.join(repo, MPI_PROGRAM)],
         "mpicxx " + MPI_PROGRAM)
    return out


#--- The tarball ----------------------------------------------------------


def tarball(a):
    shutil.rmtree(a.work, ignore_errors=True)
    tgz = cpack(a.build, "TGZ", os.path.join(a.work, "out"))
    dest = os.path.join(a.work, "unpacked here")
    os.makedirs(dest)
    must(["tar", "-xzf", tgz, "-C", dest], "tar -x")
    (top,) = [os.path.join(dest, d) for d in os.listdir(dest)]
    exe = os.path.join(top, "bin", "distlint")

    files = ["bin/distlint", "bin/precommit-distlint", "share/man/man1/distlint.1",
             "share/bash-completion/completions/distlint",
             "share/distlint/cuda/texture_fetch_functions.h",
             "share/doc/distlint/README.md", "share/doc/distlint/examples/train_ddp.cpp",
             "lib/clang/19/include/stddef.h", "lib/clang/19/include/omp.h"]
    files += ["share/doc/distlint/rules/%s.md" % r for r in rule_ids(a.distlint)]
    if a.with_runtime:
        files += ["bin/distlint-rt", "lib/libdistlint-rt.so", "share/man/man1/distlint-rt.1",
                  "share/bash-completion/completions/distlint-rt"]
    if os.path.exists(os.path.join(a.build, "lib", "libdistlint-tidy.so")):
        files.append("lib/libdistlint-tidy.so")
    missing = [f for f in files if not os.path.exists(os.path.join(top, f))]
    check(not missing, "not in the tarball: %s" % missing)

    # Relocatable: our libraries by $ORIGIN, nothing from the build tree (a
    # sanitized build adds the sanitizer runtime's system directory).
    for binary in ["bin/distlint"] + (["bin/distlint-rt"] if a.with_runtime else []):
        entries = runpath(os.path.join(top, binary)).split(":")
        check("$ORIGIN/../lib" in entries and
              not any(e.startswith((os.path.realpath(a.build), os.path.realpath(a.repo)))
                      for e in entries),
              "%s: RUNPATH %s, expected $ORIGIN/../lib and nothing of the build" % (
                  binary, entries))
    version = must([exe, "--version"], "distlint --version").stdout
    for word in ("LLVM 19", "MPI", "NCCL", "LibTorch"):
        check(word in version, "--version does not name %s:\n%s" % (word, version))
    resource = must([exe, "--print-resource-dir"], "--print-resource-dir").stdout.strip()
    check(os.path.realpath(resource).startswith(os.path.realpath(top)),
          "the unpacked distlint uses builtin headers from %s, not its own" % resource)
    man = open(os.path.join(top, "share/man/man1/distlint.1")).read()
    completion = open(os.path.join(top, "share/bash-completion/completions/distlint")).read()
    check("\\-\\-rules" in man and "\\-\\-baseline" in man, "distlint.1 lacks the options")
    check("--rules" in completion and "complete " in completion, "completion lacks --rules")
    print("tarball layout, RUNPATH, --version, resource dir, man page, completion: ok")

    # Findings equal the build tree's: a plain MPI program, then OpenMP + MPI.
    program = os.path.join(a.repo, MPI_PROGRAM)
    flags = ["--", "-std=c++17", "-I" + os.path.join(a.repo, "testdata", "include")]
    for name, cmd_tail in [("MPI program", [program] + flags)] + openmp_case(a):
        base = ["--format=json", "--quiet", "-j", "1", "--no-cache"] + cmd_tail
        built = findings(run([a.distlint] + base).stdout, "build tree, " + name)
        unpacked = findings(run([exe] + base, cwd=dest).stdout, "tarball, " + name)
        check(built and built == unpacked,
              "%s: tarball found %s, build tree %s" % (name, unpacked, built))
        print("%s: %d finding(s), the same as the build tree" % (name, sum(built.values())))

    nvcc_case(a, exe)
    if a.with_runtime:
        runtime_case(a, top)


def rule_ids(distlint):
    out = must([distlint, "--list-rules"], "--list-rules").stdout
    return [l.strip() for l in out.splitlines()[1:] if l.strip()]


def openmp_case(a):
    """solver.c of testdata/projects as mpicc -fopenmp compiles it."""
    flags = mpi_compile_flags()
    if flags is None:
        print("no mpicc: OpenMP+MPI case left out")
        return []
    solver = os.path.join(a.repo, "testdata", "projects", "mpi_omp_cuda", "solver.c")
    return [("OpenMP+MPI C (omp.h from the package)",
             [solver, "--", "-fopenmp"] + flags)]


def nvcc_case(a, exe):
    """The issue's database entry: nvcc -I<cuda>/include -O2 -arch=sm_90 -c."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not os.access(nvcc, os.X_OK):
        print("no nvcc: CUDA case left out")
        return
    source = os.path.join(a.repo, "testdata", "projects", "mpi_omp_cuda", "train.cu")
    db = os.path.join(a.work, "nvcc-db")
    os.makedirs(db, exist_ok=True)
    toolkit = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    with open(os.path.join(db, "compile_commands.json"), "w") as fh:
        json.dump([{"directory": db, "file": source,
                    "command": "%s -I%s/include -O2 -arch=sm_90 --expt-relaxed-constexpr "
                               "-Xcompiler -fPIC -c %s -o train.o" % (nvcc, toolkit, source)}], fh)
    p = run([exe, "-p", db, "--all", "--format=json", "--quiet", "-j", "1", "--no-cache"])
    got = without_messages(findings(p.stdout, "tarball, nvcc database"))
    want = expected_of(source)
    check(got == want, "nvcc database: found %s, annotated %s" % (got, want))
    print("nvcc database (CUDA %s): %d finding(s) as annotated" % (
        os.path.basename(toolkit), sum(want.values())))


def runtime_case(a, top):
    mpirun = shutil.which("mpirun")
    program = build_mpi_program(a.repo, a.work)
    if not mpirun or not program:
        print("no mpicxx/mpirun: distlint-rt case left out")
        return
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISTLINT_RT")}
    env.update(runproof.MPI_ENV)
    p = run([os.path.join(top, "bin", "distlint-rt"), "run", "--nproc", "2", "--timeout",
             "20", "--out", os.path.join(a.work, "trace"), "--", program], env=env,
            timeout=180)
    report = p.stdout + p.stderr
    check(p.returncode == 1 and "hang" in report.lower(),
          "distlint-rt run (tarball) on %s: exit %d, expected 1 and a hang:\n%s" % (
              MPI_PROGRAM, p.returncode, report[-3000:]))
    print("distlint-rt run from the tarball: hang reported (preload library found)")


#--- The .deb in a clean Debian 12 root ------------------------------------


def base_root(cache):
    """A pristine minbase root as a tar in the build tree (made once)."""
    tar = os.path.join(cache, "debian-%s-minbase.tar" % SUITE)
    if os.path.exists(tar):
        return tar
    tmp = os.path.join(cache, "debootstrap-tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    start = time.monotonic()
    must(["debootstrap", "--variant=minbase", SUITE, tmp, MIRROR], "debootstrap")
    must(["tar", "-C", tmp, "-cf", tar + ".tmp", "."], "tar -c")
    os.replace(tar + ".tmp", tar)
    shutil.rmtree(tmp, ignore_errors=True)
    print("debootstrap %s (minbase) in %.0fs, cached as %s" % (SUITE, time.monotonic() - start, tar))
    return tar


def mounts_under(root):
    prefix = os.path.realpath(root) + "/"
    with open("/proc/self/mountinfo") as fh:
        points = [line.split()[4] for line in fh]
    return sorted((p for p in points if p.startswith(prefix)), key=len, reverse=True)


def unmount_all(root):
    """Every mount under root, deepest first; raises if one stays (then
    nothing under root may be deleted: /dev is bound there)."""
    for point in mounts_under(root):
        run(["umount", "-l", point])
    left = mounts_under(root)
    check(not left, "still mounted, not deleting %s: %s" % (root, left))


def remove_root(root):
    if os.path.exists(root):
        unmount_all(root)
        shutil.rmtree(root)


class Chroot:
    MOUNTS = [("proc", ["-t", "proc", "proc"]),
              ("dev", ["--rbind", "/dev"]),
              # Open MPI's shared-memory transport, private to the root.
              ("dev/shm", ["-t", "tmpfs", "tmpfs"])]

    def __init__(self, root):
        self.root = root

    def __enter__(self):
        try:
            for rel, args in self.MOUNTS:
                target = os.path.join(self.root, rel)
                os.makedirs(target, exist_ok=True)
                must(["mount"] + args + [target], "mount " + rel)
        except Failure:
            unmount_all(self.root)
            raise
        shutil.copy("/etc/resolv.conf", os.path.join(self.root, "etc", "resolv.conf"))
        return self

    def __exit__(self, *exc):
        unmount_all(self.root)

    def sh(self, script, what, timeout=3600, env=None):
        full = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
                "DEBIAN_FRONTEND": "noninteractive", "LANG": "C.UTF-8"}
        full.update(env or {})
        start = time.monotonic()
        p = run(["chroot", self.root, "/bin/bash", "-c", script], env=full, timeout=timeout)
        print("[chroot %4.0fs] %s: exit %d" % (time.monotonic() - start, what, p.returncode))
        return p


def deb(a):
    if os.environ.get("DISTLINT_HEAVY") != "1":
        print("SKIPPED: heavy test (a Debian root from debootstrap); run with DISTLINT_HEAVY=1")
        return SKIP
    missing = [t for t in ("debootstrap", "chroot", "dpkg-deb", "dpkg-shlibdeps", "mount")
               if not shutil.which(t)]
    if os.geteuid() != 0 or missing:
        print("SKIPPED: needs root and %s" % (missing or "root"))
        return SKIP
    started = time.monotonic()
    root = os.path.join(a.work, "root")
    remove_root(root)  # a failed run's root, if any
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    package = cpack(a.build, "DEB", os.path.join(a.work, "out"))
    depends = must(["dpkg-deb", "-f", package, "Depends"], "dpkg-deb -f").stdout
    print("Depends: " + depends.strip())
    for want in ("libclang-cpp19", "libllvm19", "libclang-common-19-dev", "libomp-19-dev",
                 "libstdc++6"):
        check(want in depends, "Depends lacks %s: %s" % (want, depends))
    contents = must(["dpkg-deb", "-c", package], "dpkg-deb -c").stdout
    check("./usr/lib/clang/" not in contents,
          "the .deb ships files libclang-common-19-dev owns (/usr/lib/clang)")

    tar = base_root(a.cache)
    os.makedirs(root)
    must(["tar", "-C", root, "-xf", tar], "tar -x base root")
    shutil.copy(package, os.path.join(root, "tmp"))
    program = build_mpi_program(a.repo, a.work)
    if program:
        shutil.copy(program, os.path.join(root, "tmp", "mpi_program"))
    name = os.path.basename(package)
    with Chroot(root) as c:
        p = c.sh("apt-get update -qq && apt-get install -y -q ./tmp/%s" % name,
                 "apt-get install ./" + name)
        check(p.returncode == 0, "apt-get install failed:\n" + (p.stdout + p.stderr)[-4000:])
        p = c.sh("distlint --version && man -w distlint 2>/dev/null; "
                 "ls /usr/share/bash-completion/completions/distlint /usr/lib/libdistlint-rt.so",
                 "distlint --version")
        check(p.returncode == 0 and "LLVM 19" in p.stdout, "installed distlint:\n" + p.stdout + p.stderr)
        print(p.stdout.strip())
        if program and a.with_runtime:
            p = c.sh("cd /tmp && distlint-rt run --nproc 2 --timeout 20 --out /tmp/trace "
                     "-- /tmp/mpi_program", "distlint-rt run --nproc 2 (MPI)",
                     env=runproof.MPI_ENV, timeout=600)
            report = p.stdout + p.stderr
            check(p.returncode == 1 and "hang" in report.lower(),
                  "distlint-rt run in the root: exit %d, expected 1 and a hang:\n%s" % (
                      p.returncode, report[-3000:]))
            print("distlint-rt run: hang reported:\n    " +
                  "\n    ".join(report.strip().splitlines()[:6]))
        # The example's own build dependencies, as its README says.
        p = c.sh("apt-get install -y -q --no-install-recommends cmake make g++ "
                 "libtorch-dev libgloo-dev", "the example's dependencies (LibTorch)")
        check(p.returncode == 0, "installing LibTorch failed:\n" + (p.stdout + p.stderr)[-3000:])
        p = c.sh("cp -r /usr/share/doc/distlint/examples /tmp/examples && "
                 "cmake -S /tmp/examples -B /tmp/examples/build >/dev/null && "
                 "distlint -p /tmp/examples/build --all --format=json -j 2 > /tmp/example.json;"
                 " echo $? > /tmp/example.rc", "distlint on the shipped example")
        rc = open(os.path.join(root, "tmp", "example.rc")).read().strip()
        installed = findings(open(os.path.join(root, "tmp", "example.json")).read(),
                             "installed package, example")
    host_build = os.path.join(a.work, "host-examples")
    must(["cmake", "-S", os.path.join(a.repo, "examples"), "-B", host_build],
         "cmake examples (host)")
    built = findings(run([a.distlint, "-p", host_build, "--all", "--format=json", "-j", "2"]).stdout,
                     "build tree, example")
    check(rc == "1" and installed and installed == built,
          "example: installed package exit %s, %s; build tree %s" % (rc, installed, built))
    print("shipped example in the Debian 12 root: %d finding(s), the same as the build tree"
          % sum(built.values()))
    remove_root(root)  # 2+ GB with LibTorch; kept only when the test fails
    print("deb test done in %.0fs" % (time.monotonic() - started))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["tarball", "deb"])
    ap.add_argument("--build", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cache")
    ap.add_argument("--with-runtime", action="store_true")
    a = ap.parse_args()
    if not shutil.which("cpack"):
        print("SKIPPED: cpack not found")
        return SKIP
    try:
        if a.mode == "tarball":
            tarball(a)
            return 0
        return deb(a)
    except Failure as e:
        print("FAIL: %s" % e)
        return 1
    except subprocess.TimeoutExpired as e:
        print("FAIL: timed out after %ss: %s" % (e.timeout, e.cmd))
        return 1


if __name__ == "__main__":
    sys.exit(main())
