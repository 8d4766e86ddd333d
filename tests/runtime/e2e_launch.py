#!/usr/bin/env python3
"""End-to-end tests of how distlint-rt run launches jobs (issue 12).

  e2e_launch.py --config e2e-config.json --case <name>

MPI programs go through mpirun (never N singletons), a job launcher as the
child is ended once a hang is confirmed, traces carry run ids, bad settings
warn, written files are 0600, the runtime SARIF passes GitHub's rules, and
divergences are seen live (within 2 s with a 300 s timeout). Exit 77 =
skipped, with the reason.
"""
import argparse
import json
import os
import re
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Context, Failure, check, run, source_facts  # noqa: E402

# Open MPI in a container: loopback shared memory only (as tests/runproof).
MPI_ENV = {
    "OMPI_MCA_btl": "self,vader",
    "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_oob_tcp_if_include": "lo",
    "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_mpi_yield_when_idle": "1",
    "PMIX_MCA_gds": "hash",
    "PMIX_MCA_psec": "native",
}
PROGRAMS = "tests/runtime/programs"
LIVE_LIMIT = 2.0  # seconds from divergence to report (issue 12)


def need_mpi(ctx):
    if not ctx.cfg["mpirun"]:
        print("SKIPPED: no mpirun")
        sys.exit(77)


def mpi_env(ctx, **extra):
    return ctx.env(**MPI_ENV, **extra)


def source(ctx, name):
    return os.path.join(ctx.cfg["repo"], PROGRAMS, name)


def line_of(path, text):
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            if text in line:
                return number
    raise Failure(f"{path}: no line with {text!r}")


def rt_run(ctx, *args, env=None, timeout=90):
    return run([ctx.cfg["distlint_rt"], "run", *args], env=env or mpi_env(ctx),
               timeout=timeout)


def positions(op):
    return {(os.path.basename(f["file"]), f["line"]) for f in op.get("frames", [])}


def check_hang_divergence(ctx, report, src):
    """Both ranks' positions: rank 0 in the all-reduce, rank 1 in MPI_Finalize."""
    name = os.path.basename(src)
    allreduce = line_of(src, "divergence here")
    finalize = line_of(src, "MPI_Finalize();")
    check(report["divergences"], f"no divergence: {json.dumps(report)[:2000]}")
    first = report["divergences"][0]
    issued = [op for op in first["issued"] if op["rank"] == 0]
    check(issued and (name, allreduce) in positions(issued[0]),
          f"rank 0 not at {name}:{allreduce}: {first['issued']}")
    missing = [m for m in first["missing"] if m["comm_rank"] == 1]
    check(missing, f"rank 1 not named as missing: {first}")
    where = missing[0].get("blocked_in") or missing[0].get("last_call") or {}
    check((name, finalize) in positions(where),
          f"rank 1 not at {name}:{finalize}: {missing[0]}")


# ---- Launching -------------------------------------------------------------------------------

def case_mpi_run_divergence(ctx):
    """Acceptance 1: `run --nproc 2 --timeout 5 -- ./hang` is one job through
    mpirun, reported as a divergence with both ranks' positions."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    code, out, err = rt_run(ctx, "--nproc", "2", "--timeout", "5", "--out", traces,
                            "--log-dir", ctx.path("logs"), "--format", "json", "--",
                            ctx.binary("mpi_hang"))
    check(code == 1, f"exit {code}, want 1\n{out}\n{err}")
    report = json.loads(out)
    check(not report["clean"], "report says clean")
    check(len(report["ranks"]) == 2, f"want 2 rank traces, got {report['ranks']}")
    check_hang_divergence(ctx, report, source(ctx, "mpi_hang.c"))
    with open(os.path.join(traces, "run.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    check(manifest["launcher"] == "launcher" and "mpirun" in manifest["program"] and
          "-np 2" in manifest["program"], f"not launched through mpirun: {manifest}")


def case_mpi_live_abort(ctx):
    """Acceptance 3 (MPI): with a 300 s timeout, the divergence is reported
    live within 2 s and --abort ends the job."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    start = time.time()
    code, out, err = rt_run(ctx, "--nproc", "2", "--timeout", "300", "--abort", "--out",
                            traces, "--log-dir", ctx.path("logs"), "--format", "json", "--",
                            ctx.binary("mpi_hang"),
                            timeout=60)
    wall = time.time() - start
    check(code == 1, f"exit {code}\n{err}")
    report = json.loads(out)
    check(report["live"], f"no live report: {err}")
    latency = min(l["latency_seconds"] for l in report["live"])
    print(f"live detection latency {latency:.3f} s, whole run {wall:.1f} s")
    check(latency < LIVE_LIMIT, f"reported {latency:.2f} s after the divergence")
    check(wall < 30, f"job ran {wall:.0f} s although the divergence was seen live")
    check_hang_divergence(ctx, report, source(ctx, "mpi_hang.c"))
    with open(ctx.path("logs", "rank0.err"), encoding="utf-8") as fh:
        err += fh.read()  # mpirun's stderr: the ranks' lines
    lines = [l for l in err.splitlines() if "divergence on communicator" in l]
    check(lines and "mpi_hang+0x" in lines[0] and "MPI_Finalize" in lines[0] and
          "MPI_Allreduce" in lines[0], f"live line lacks both call-sites: {lines}")


def case_mpi_live_cross_comm(ctx):
    """Two ranks each blocked in a barrier the other has not reached, on two
    communicators (used in opposite orders): no sequence number disagrees,
    yet it is reported live within 2 s (300 s timeout) with both call-sites,
    and --abort ends the job."""
    need_mpi(ctx)
    src = source(ctx, "mpi_cross_comm.c")
    world = line_of(src, "rank 0 waits")
    data = line_of(src, "rank 1 waits")
    start = time.time()
    code, out, err = rt_run(ctx, "--nproc", "2", "--timeout", "300", "--abort", "--out",
                            ctx.path("traces"), "--log-dir", ctx.path("logs"), "--format",
                            "json", "--", ctx.binary("mpi_cross_comm"), timeout=60)
    wall = time.time() - start
    check(code == 1, f"exit {code}\n{out}\n{err}")
    report = json.loads(out)
    cross = [l for l in report["live"] if l["kind"] == "cross-wait"]
    check(cross, f"no cross-communicator live report: {report['live']}\n{err}")
    latency = min(l["latency_seconds"] for l in cross)
    print(f"live detection latency {latency:.3f} s, whole run {wall:.1f} s")
    check(latency < LIVE_LIMIT, f"reported {latency:.2f} s after the deadlock")
    check(wall < 30, f"job ran {wall:.0f} s although the deadlock was seen live")
    name = os.path.basename(src)
    seen = set()
    for d in report["divergences"]:
        for op in d["issued"]:
            seen |= {(op["rank"], l) for f, l in positions(op) if f == name}
    check({(0, world), (1, data)} <= seen,
          f"divergences lack rank 0 at {name}:{world} and rank 1 at {name}:{data}: "
          f"{sorted(seen)}\n{json.dumps(report['divergences'])[:2000]}")
    with open(ctx.path("logs", "rank0.err"), encoding="utf-8") as fh:
        err += fh.read()
    lines = [l for l in err.splitlines() if "deadlock across communicators" in l]
    check(lines and lines[0].count("MPI_Barrier") == 2 and "mpi_cross_comm+0x" in lines[0],
          f"live line lacks both call-sites: {lines}")


def case_launcher_child(ctx):
    """`--nproc 1 -- mpirun ...` ends the whole job once the hang is confirmed."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    cmd = [ctx.cfg["mpirun"], "-np", "2", "--allow-run-as-root", "--oversubscribe",
           ctx.binary("mpi_hang")]
    start = time.time()
    code, out, err = rt_run(ctx, "--nproc", "1", "--timeout", "3", "--out", traces,
                            "--log-dir", ctx.path("logs"), "--format", "json", "--", *cmd,
                            env=mpi_env(ctx, DISTLINT_RT_LIVE=0), timeout=60)
    wall = time.time() - start
    check(code == 1, f"exit {code}\n{err}")
    check("hang confirmed" in err, f"no hang confirmation: {err}")
    check(wall < 25, f"job not ended after the hang was confirmed ({wall:.0f} s)")
    report = json.loads(out)
    check_hang_divergence(ctx, report, source(ctx, "mpi_hang.c"))
    # Nothing of the job is left running (a zombie waiting for init is ended).
    time.sleep(0.5)
    for rank in report["ranks"]:
        try:
            with open(f"/proc/{rank['pid']}/stat", encoding="utf-8") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            continue
        check(state in ("Z", "X"), f"rank {rank['rank']} (pid {rank['pid']}) still running")


def case_refuse_without_mpirun(ctx):
    """No usable mpirun: one line with the command to use, exit 2."""
    env = mpi_env(ctx, PATH=ctx.path("empty-path"))
    os.makedirs(ctx.path("empty-path"))
    code, out, err = rt_run(ctx, "--nproc", "2", "--out", ctx.path("traces"), "--",
                            ctx.binary("mpi_hang"), env=env)
    lines = err.strip().splitlines()
    check(code == 2 and len(lines) == 1, f"exit {code}, {lines}")
    check(re.search(r"mpirun -np 2 -x LD_PRELOAD=\S+libdistlint-rt\.so -x DISTLINT_RT_DIR=",
                    lines[0]), f"no mpirun command in {lines[0]!r}")
    check(not os.path.exists(ctx.path("traces")), "ranks were started anyway")


def case_launcher_nproc(ctx):
    """--nproc 2 with mpirun as the program would start two jobs: refused."""
    need_mpi(ctx)
    code, _, err = rt_run(ctx, "--nproc", "2", "--", ctx.cfg["mpirun"], "-np", "2",
                          ctx.binary("mpi_hang"))
    lines = err.strip().splitlines()
    check(code == 2 and len(lines) == 1 and "--nproc 1 --" in lines[0], f"{code} {lines}")


def singleton(ctx, traces, run_id, **env):
    """One MPI process on its own (a world of 1: mpi_hang then finishes)."""
    return subprocess.Popen([ctx.binary("mpi_hang")], env=mpi_env(
        ctx, LD_PRELOAD=ctx.cfg["preload"], DISTLINT_RT_DIR=traces,
        DISTLINT_RT_RUN_ID=run_id, **env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)


def case_run_ids(ctx):
    """Traces of another run are ignored with one note; two traces claiming
    the same rank of one run are an error (exit 2)."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    code, out, err = rt_run(ctx, "--nproc", "2", "--timeout", "30", "--out", traces, "--",
                            ctx.binary("mpi_clean"))
    check(code == 0, f"clean run exited {code}: {err}")
    # A stray job writes into the same directory afterwards.
    stray = singleton(ctx, traces, "abcdef")
    stray.communicate(timeout=60)
    code, report = ctx.report_json(traces)
    notes = [n for n in report["notes"] if "other run" in n]
    check(code == 0 and report["clean"] and len(report["ranks"]) == 2,
          f"report mixed runs: {code} {report['ranks']}")
    check(len(notes) == 1 and "ignored 1 trace file(s)" in notes[0], f"notes {report['notes']}")
    # N singletons of one "run": each claims rank 0.
    dup = ctx.path("dup")
    procs = [singleton(ctx, dup, "1234") for _ in range(2)]
    for p in procs:
        p.communicate(timeout=60)
    code, out, err = ctx.distlint_rt("report", dup)
    check(code == 2 and "two traces claim rank 0 of run 0000000000001234" in err,
          f"duplicate ranks: exit {code}, {err!r}")
    check("no divergence" not in out, out)


def case_bad_settings(ctx):
    """DISTLINT_RT_RECORDS=abc, DISTLINT_RT_TIMEOUT=-5: one warning line
    each, and the defaults."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    p = singleton(ctx, traces, "99", DISTLINT_RT_RECORDS="abc", DISTLINT_RT_TIMEOUT="-5")
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0, f"exit {p.returncode}: {err}")
    warnings = [l for l in err.splitlines() if l.startswith("distlint-rt:")]
    check(len(warnings) == 2, f"want two warning lines, got {warnings}")
    check(any("DISTLINT_RT_RECORDS=abc" in w and "65536" in w for w in warnings), warnings)
    check(any("DISTLINT_RT_TIMEOUT=-5" in w and "300" in w for w in warnings), warnings)
    code, out, err = ctx.distlint_rt("dump", next(
        os.path.join(traces, f) for f in os.listdir(traces) if f.endswith(".trace")))
    check(code == 0 and "capacity 65536 " in out, f"default ring size not used: {out[:200]}")


def case_private_files(ctx):
    """run.json, --output files and rank logs are 0600, like the traces."""
    need_mpi(ctx)
    traces, logs = ctx.path("traces"), ctx.path("logs")
    os.umask(0o022)
    code, _, err = rt_run(ctx, "--nproc", "2", "--timeout", "30", "--out", traces,
                          "--log-dir", logs, "--", ctx.binary("mpi_clean"))
    check(code == 0, f"exit {code}: {err}")
    sarif = ctx.path("report.sarif")
    code, _, err = ctx.distlint_rt("report", traces, "--format", "sarif", "--output", sarif)
    check(code == 0, f"report exit {code}: {err}")
    files = [sarif] + [os.path.join(traces, f) for f in os.listdir(traces)]
    for path in files:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        check(mode == 0o600, f"{path} is {oct(mode)}, want 0o600")


def case_sarif_multitool(ctx):
    """The runtime SARIF passes the multitool's GitHub rules."""
    script = os.path.join(ctx.cfg["repo"], "scripts", "install-sarif-multitool.sh")
    p = subprocess.run(["bash", script], capture_output=True, text=True)
    if p.returncode == 3:
        print("SKIPPED: SARIF multitool not installable (npm registry unreachable?):\n" +
              p.stderr)
        sys.exit(77)
    check(p.returncode == 0, f"install-sarif-multitool.sh failed:\n{p.stderr}")
    tool = p.stdout.strip().splitlines()[-1]
    need_mpi(ctx)
    traces = ctx.path("traces")
    code, _, err = rt_run(ctx, "--nproc", "2", "--timeout", "3", "--out", traces, "--",
                          ctx.binary("mpi_hang"))
    check(code == 1, f"run exit {code}: {err}")
    sarif = ctx.path("rt.sarif")
    code, _, err = ctx.distlint_rt("report", traces, "--format", "sarif", "--output", sarif)
    check(code == 1, f"report exit {code}: {err}")
    log = ctx.path("validation.sarif")
    v = subprocess.run([tool, "validate", "--rule-kind", "Gh;Sarif", "--output", log, sarif],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(os.path.exists(log), f"multitool wrote no log ({v.returncode}):\n{v.stdout}")
    with open(log, encoding="utf-8") as fh:
        results = json.load(fh)["runs"][0].get("results", [])
    errors = [r for r in results if r.get("level", "warning") in ("error", "warning")]
    check(not errors, "SARIF validation:\n" + "\n".join(
        f"{r.get('ruleId')}: {r.get('message', {}).get('text', r.get('message'))}"
        for r in errors))
    check(v.returncode == 0, f"multitool exit {v.returncode}:\n{v.stdout}")
    with open(sarif, encoding="utf-8") as fh:
        doc = json.load(fh)
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    check(all(r.get("help", {}).get("text") for r in rules), f"rules without help: {rules}")
    check(doc["runs"][0]["results"], "no results for a divergent run")


def case_mpi_abort_wait(ctx):
    """DISTLINT_RT_ABORT=1 ends a job whose ranks block in MPI_Wait and
    MPI_Finalize (no live view: the hang path alone)."""
    need_mpi(ctx)
    traces = ctx.path("traces")
    cmd = [ctx.cfg["mpirun"], "-np", "2", "--allow-run-as-root", "--oversubscribe",
           "-x", f"LD_PRELOAD={ctx.cfg['preload']}", "-x", f"DISTLINT_RT_DIR={traces}",
           "-x", "DISTLINT_RT_TIMEOUT=2", "-x", "DISTLINT_RT_ABORT=1",
           "-x", "DISTLINT_RT_LIVE=0", ctx.binary("mpi_ibarrier_wait")]
    start = time.time()
    code, out, err = run(cmd, env=mpi_env(ctx), timeout=40)
    check(code != 0, f"job finished with 0: {out}")
    check(time.time() - start < 30, "job not ended by the abort")
    check("aborting communicator" in err, f"no abort: {err}")
    rcode, report = ctx.report_json(traces)
    check(rcode == 1 and report["divergences"], f"{json.dumps(report)[:1500]}")


CASES = {
    "mpi-run-divergence": case_mpi_run_divergence,
    "mpi-live-abort": case_mpi_live_abort,
    "mpi-live-cross-comm": case_mpi_live_cross_comm,
    "launcher-child": case_launcher_child,
    "refuse-without-mpirun": case_refuse_without_mpirun,
    "launcher-nproc": case_launcher_nproc,
    "run-ids": case_run_ids,
    "bad-settings": case_bad_settings,
    "private-files": case_private_files,
    "sarif-multitool": case_sarif_multitool,
    "mpi-abort-wait": case_mpi_abort_wait,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as fh:
        ctx = Context(json.load(fh))
    try:
        CASES[args.case](ctx)
    except Failure as failure:
        print(f"FAIL {args.case}: {failure}\n(files in {ctx.tmp})")
        return 1
    finally:
        if not args.keep:
            ctx.cleanup()
    print(f"PASS {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
