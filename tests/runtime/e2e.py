#!/usr/bin/env python3
"""End-to-end tests of distlint-rt: real processes, real traces, real reports.

  e2e.py --config e2e-config.json --case nccl/<program>     testdata NCCL program
  e2e.py --config e2e-config.json --case program/<program>  tests/runtime/programs
  e2e.py --config e2e-config.json --case mpi/<program>      mpirun -np 2 + preload
  e2e.py --config e2e-config.json --case special/<name>     see SPECIAL below

Buggy programs (`run: ... buggy`) must end non-zero and the report must name
the divergence at the expected line(s): `// expect: distlint-rank-divergent-
collective` in testdata, `divergence here` in tests/runtime/programs. Clean
programs (`run: ... clean`) must finish with the same per-rank output with
and without the recorder, and the report must be clean.

Every process runs in its own session with a timeout; on timeout the whole
process group is killed. Exit 77 = skipped.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# DISTLINT_RT_TIMEOUT (seconds). Buggy runs need a short one to end soon;
# clean runs a long one, so a slow start on a busy machine is not a "hang".
TIMEOUT = 3
MPI_TIMEOUT = 4
CLEAN_TIMEOUT = 30
MAX_RUN = 90      # Upper bound for any single run

RUN_LINE = re.compile(r"run:\s*(nccl|mpi)\s+(buggy|clean)")
EXPECT_LINE = re.compile(r"expect:\s*distlint-rank-divergent-collective|divergence here")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(cmd, env=None, timeout=MAX_RUN, cwd=None):
    """Runs cmd in its own process group; kills the group on timeout."""
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise Failure(f"timed out after {timeout}s: {' '.join(cmd)}\n{out}\n{err}")
    return proc.returncode, out, err


def source_facts(path):
    """(mode, expected lines) from a program's annotations."""
    mode, lines = None, []
    with open(path, encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            m = RUN_LINE.search(text)
            if m and mode is None:
                mode = m.group(2)
            if EXPECT_LINE.search(text):
                lines.append(number)
    if mode is None:
        raise Failure(f"{path}: no 'run: nccl|mpi buggy|clean' line")
    return mode, lines


class Context:
    def __init__(self, config):
        self.cfg = config
        self.tmp = tempfile.mkdtemp(prefix="dlrt-e2e-")

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def env(self, **extra):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        env["NCCL_ID_FILE"] = self.path("nccl-id")
        env.update({k: str(v) for k, v in extra.items()})
        return env

    def binary(self, name):
        path = os.path.join(self.cfg["bin"], name)
        check(os.access(path, os.X_OK), f"{path} was not built")
        return path

    def distlint_rt(self, *args, env=None, timeout=MAX_RUN):
        return run([self.cfg["distlint_rt"], *args], env=env or self.env(), timeout=timeout)

    def report_json(self, trace_dir, *extra):
        code, out, err = self.distlint_rt("report", trace_dir, "--format", "json", *extra)
        check(code in (0, 1), f"report failed ({code}): {err}")
        return code, json.loads(out)


def problem_lines(report, source):
    """Lines of `source` the report's problems point at (all frames)."""
    base = os.path.realpath(source)
    lines = set()

    def add(op):
        if not op:
            return
        for frame in op.get("frames", []):
            if os.path.realpath(frame["file"]) == base:
                lines.add(frame["line"])
        if "file" in op and os.path.realpath(op["file"]) == base:
            lines.add(op["line"])

    if report["divergences"]:
        first = report["divergences"][0]
        for op in first["issued"]:
            add(op)
        for missing in first["missing"]:
            add(missing.get("last"))
            add(missing.get("blocked_in"))  # where a missing rank waits
    for hang in report["hangs"]:
        add(hang.get("blocked_in"))
        for op in hang["pending"]:
            add(op)
    for p2p in report["p2p"]:
        add(p2p.get("last_send"))
        add(p2p.get("last_recv"))
    return lines


def per_rank_outputs(log_dir, nproc):
    outs = []
    for rank in range(nproc):
        with open(os.path.join(log_dir, f"rank{rank}.out"), encoding="utf-8") as fh:
            outs.append(fh.read())
    return outs


def run_ranks_directly(ctx, program, nproc, extra_env=None):
    """Starts the ranks without distlint-rt or the preload (the baseline)."""
    procs = []
    for rank in range(nproc):
        env = ctx.env(RANK=rank, WORLD_SIZE=nproc, LOCAL_RANK=rank, MASTER_ADDR="127.0.0.1",
                      MASTER_PORT=29999, **(extra_env or {}))
        procs.append(subprocess.Popen([program], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True,
                                      start_new_session=True))
    outs = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=MAX_RUN)
            check(p.returncode == 0, f"baseline rank failed ({p.returncode}): {err}")
            outs.append(out)
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    return outs


# ---- NCCL stand-in programs under distlint-rt run ----------------------------------------

def nccl_case(ctx, source, name):
    mode, expected = source_facts(source)
    program = ctx.binary(name)
    traces, logs = ctx.path("traces"), ctx.path("logs")
    if mode == "clean":
        baseline = run_ranks_directly(ctx, program, 2)
        os.unlink(ctx.path("nccl-id")) if os.path.exists(ctx.path("nccl-id")) else None
    timeout = CLEAN_TIMEOUT if mode == "clean" else TIMEOUT
    code, out, err = ctx.distlint_rt("run", "--nproc", "2", "--timeout", str(timeout),
                                     "--max-time", str(MAX_RUN - 10), "--out", traces,
                                     "--log-dir", logs, "--format", "json", "--", program)
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        raise Failure(f"distlint-rt run printed no JSON report ({code}):\n{out}\n{err}")
    if mode == "clean":
        check(code == 0, f"clean program: distlint-rt run exited {code}\n{out}\n{err}")
        check(report["clean"], f"clean program: report not clean:\n{out}")
        outputs = per_rank_outputs(logs, 2)
        check(outputs == baseline,
              f"output differs with the recorder:\n--- without\n{baseline}\n--- with\n{outputs}")
        # Completion came from CUDA events (the stand-in driver), except for
        # operations captured into a graph, which must not be watched.
        for site in report["sites"]:
            if not site["op"].startswith("nccl") or site["op"].startswith("ncclComm"):
                continue
            if name == "nccl_capture":
                check(site["completion_not_observed"] == site["counts"],
                      f"captured operation was watched: {site}")
            else:
                check(not site["completion_not_observed"],
                      f"completion not observed through events: {site}")
        return
    check(code == 1, f"buggy program: distlint-rt run exited {code}, want 1\n{err}")
    check(not report["clean"], "buggy program: report says clean")
    check(report["divergences"] or report["p2p"],
          f"buggy program: no divergence reported:\n{out}")
    check(report["hangs"], f"buggy program: no hang reported:\n{out}")
    found = problem_lines(report, source)
    for line in expected:
        check(line in found,
              f"report does not point at {os.path.basename(source)}:{line} "
              f"(it points at lines {sorted(found)}):\n{out}")
    # The text report names the file:line of the first divergence.
    code, text, _ = ctx.distlint_rt("report", traces)
    check(code == 1, f"report on a buggy run exited {code}")
    check("FIRST DIVERGENCE" in text, f"text report lacks the divergence:\n{text}")
    for line in expected:
        if report["divergences"]:
            check(f"{os.path.basename(source)}:{line}" in text,
                  f"text report lacks {os.path.basename(source)}:{line}:\n{text}")


# ---- MPI programs under mpirun -------------------------------------------------------------

def mpirun_cmd(ctx, program, preload, traces, abort, timeout=MPI_TIMEOUT):
    cmd = [ctx.cfg["mpirun"], "-np", "2", "--allow-run-as-root", "--oversubscribe",
           "--mca", "btl", "self,vader,tcp", "--mca", "btl_tcp_if_include", "lo"]
    if preload:
        cmd += ["-x", f"LD_PRELOAD={ctx.cfg['preload']}", "-x", f"DISTLINT_RT_DIR={traces}",
                "-x", f"DISTLINT_RT_TIMEOUT={timeout}"]
        if abort:
            cmd += ["-x", "DISTLINT_RT_ABORT=1"]
    return cmd + [program]


def mpi_case(ctx, source, name):
    if not ctx.cfg["mpirun"]:
        print("no mpirun: skipped")
        sys.exit(77)
    mode, expected = source_facts(source)
    program = ctx.binary(name)
    traces = ctx.path("traces")
    if mode == "clean":
        code, base, err = run(mpirun_cmd(ctx, program, False, traces, False), env=ctx.env())
        check(code == 0, f"baseline mpirun failed ({code}): {err}")
        code, out, err = run(mpirun_cmd(ctx, program, True, traces, False, CLEAN_TIMEOUT),
                             env=ctx.env())
        check(code == 0, f"mpirun with the recorder failed ({code}): {err}")
        check(sorted(base.splitlines()) == sorted(out.splitlines()),
              f"output differs with the recorder:\n--- without\n{base}\n--- with\n{out}")
        rcode, report = ctx.report_json(traces)
        check(rcode == 0 and report["clean"], f"clean MPI program: report not clean: {report}")
        check(len(report["ranks"]) == 2, "want one trace per rank")
        return
    # Buggy: the watchdog aborts the job (DISTLINT_RT_ABORT=1) instead of a hang.
    code, out, err = run(mpirun_cmd(ctx, program, True, traces, True), env=ctx.env())
    check(code != 0, f"buggy MPI program finished with 0:\n{out}")
    rcode, report = ctx.report_json(traces)
    check(rcode == 1 and not report["clean"], f"report says clean: {report}")
    found = problem_lines(report, source)
    for line in expected:
        check(line in found, f"report does not point at {os.path.basename(source)}:{line} "
                             f"(lines {sorted(found)}): {json.dumps(report, indent=1)}")


# ---- Special cases --------------------------------------------------------------------------

def special_missing_real_library(ctx):
    env = ctx.env(LD_PRELOAD=ctx.cfg["preload"], DISTLINT_RT_DIR=ctx.path("traces"))
    code, out, err = run([ctx.binary("dlsym_missing")], env=env)
    check(code == 0, f"exit {code}: {err}")
    check(out.strip() == "results 2 2", f"want ncclSystemError twice, got {out!r}")
    lines = [l for l in err.splitlines() if l.startswith("distlint-rt:")]
    check(len(lines) == 1 and "no NCCL library" in lines[0],
          f"want one clear line, got {lines!r}")


def special_abort_on_hang(ctx):
    """DISTLINT_RT_ABORT=1 aborts the hung communicator: rank 0 fails by
    itself (NCCL async error) instead of hanging."""
    program = ctx.binary("early_return_buggy")
    traces = ctx.path("traces")
    procs = []
    for rank in range(2):
        env = ctx.env(RANK=rank, WORLD_SIZE=2, LOCAL_RANK=rank, LD_PRELOAD=ctx.cfg["preload"],
                      DISTLINT_RT_DIR=traces, DISTLINT_RT_TIMEOUT=2, DISTLINT_RT_ABORT=1)
        procs.append(subprocess.Popen([program], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True,
                                      start_new_session=True))
    results = []
    try:
        for p in procs:
            out, err = p.communicate(timeout=30)
            results.append((p.returncode, out, err))
    except subprocess.TimeoutExpired:
        raise Failure("a rank still hung although DISTLINT_RT_ABORT=1")
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    check(results[1][0] == 0, f"rank 1 should leave cleanly: {results[1]}")
    check(results[0][0] != 0, f"rank 0 should fail after the abort: {results[0]}")
    check("aborting communicator" in results[0][2], f"no abort line: {results[0][2]}")
    code, text, _ = ctx.distlint_rt("report", traces)
    check(code == 1 and "ABORTED: rank 0" in text, f"report lacks the abort:\n{text}")


def special_report_formats(ctx):
    traces = ctx.path("traces")
    code, out, err = ctx.distlint_rt("run", "--nproc", "2", "--timeout", str(TIMEOUT),
                                     "--out", traces, "--log-dir", ctx.path("logs"), "--",
                                     ctx.binary("count_by_rank_buggy"))
    check(code == 1, f"run exited {code}")
    code, sarif, err = ctx.distlint_rt("report", traces, "--format", "sarif",
                                       "--output", ctx.path("report.sarif"))
    check(code == 1, f"sarif report exited {code}: {err}")
    with open(ctx.path("report.sarif"), encoding="utf-8") as fh:
        log = json.load(fh)
    check(log["version"] == "2.1.0", "SARIF version")
    results = log["runs"][0]["results"]
    rules = {r["ruleId"] for r in results}
    check({"distlint-rt-divergence", "distlint-rt-hang"} <= rules, f"rules {rules}")
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    check(region["startLine"] == source_facts(os.path.join(
        ctx.cfg["repo"], "testdata/rank-divergent/nccl/count_by_rank_buggy.cpp"))[1][0],
        f"SARIF location {region}")
    code, out, _ = ctx.distlint_rt("report", traces, "--format", "json")
    report = json.loads(out)
    check(report["divergences"][0]["differs"] == ["count"], f"{report['divergences']}")


def join_lines(source):
    verdicts = {}
    with open(source, encoding="utf-8") as fh:
        for number, text in enumerate(fh, start=1):
            m = re.search(r"// join: (confirmed|reached uniformly|not reached)", text)
            if m:
                verdicts[number] = m.group(1)
    return verdicts


def join_run(ctx):
    traces = ctx.path("traces")
    code, out, err = ctx.distlint_rt("run", "--nproc", "2", "--timeout", str(TIMEOUT),
                                     "--out", traces, "--log-dir", ctx.path("logs"), "--",
                                     ctx.binary("join_mix"))
    check(code == 1, f"join_mix should hang (exit 1), got {code}: {err}")
    return traces


def check_verdicts(ctx, traces, findings_path, source):
    want = join_lines(source)
    code, report = ctx.report_json(traces, "--findings", findings_path)
    got = {}
    for f in report["findings"]:
        if os.path.realpath(f["file"]) == os.path.realpath(source):
            got.setdefault(f["line"], set()).add(f["verdict"])
    for line, verdict in want.items():
        check(line in got, f"no finding at join_mix.cpp:{line} "
                           f"(findings at {sorted(got)}); is the static rule reporting it?")
        check(got[line] == {verdict},
              f"join_mix.cpp:{line}: verdict {got[line]}, want {verdict!r}\n"
              f"{json.dumps(report['findings'], indent=1)}")
    check(not report["runtime_only"], f"unexpected runtime-only problems: {report['runtime_only']}")


def special_join_fixture(ctx):
    source = os.path.join(ctx.cfg["repo"], "tests/runtime/programs/join_mix.cpp")
    traces = join_run(ctx)
    findings = {"tool": {"name": "distlint", "version": "fixture"}, "errors": [], "findings": [
        {"rule": "distlint-rank-divergent-collective", "severity": "warning",
         "file": source, "line": line, "column": 5, "message": "fixture",
         "notes": [], "fingerprint": f"fixture-{line}"}
        for line in join_lines(source)]}
    path = ctx.path("findings.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(findings, fh)
    check_verdicts(ctx, traces, path, source)


def special_join_distlint(ctx):
    """The same join with the real distlint's --format=json output."""
    if not ctx.cfg["distlint"] or not os.access(ctx.cfg["distlint"], os.X_OK):
        print("distlint binary not built: skipped")
        sys.exit(77)
    repo = ctx.cfg["repo"]
    source = os.path.join(repo, "tests/runtime/programs/join_mix.cpp")
    path = ctx.path("findings.json")
    code, out, err = run([ctx.cfg["distlint"], "--format=json", "--output", path, source, "--",
                          "-std=c++17", "-I" + os.path.join(repo, "testdata/include"),
                          "-I" + os.path.join(repo, "testdata/rank-divergent/nccl")],
                         env=ctx.env(), timeout=120)
    check(code in (0, 1) and os.path.exists(path), f"distlint failed ({code}): {err}")
    traces = join_run(ctx)
    check_verdicts(ctx, traces, path, source)


def special_no_trace_without_calls(ctx):
    """Preloaded into a program that makes no intercepted call (a shell, a
    launcher), the library creates no file and changes nothing."""
    traces = ctx.path("traces")
    env = ctx.env(LD_PRELOAD=ctx.cfg["preload"], DISTLINT_RT_DIR=traces)
    code, out, err = run(["/bin/sh", "-c", "echo hello"], env=env)
    check(code == 0 and out == "hello\n" and err == "", f"{code} {out!r} {err!r}")
    check(not os.path.exists(traces), "a trace directory appeared")


def special_usage_errors(ctx):
    cases = [(["run", "--", "true"], "needs --nproc"),
             (["run", "--nproc", "0", "--", "true"], "--nproc"),
             (["run", "--nproc", "2"], "needs a program"),
             (["run", "--nproc", "2", "--", "/nonexistent/train"], "cannot run"),
             (["report"], "needs a trace directory"),
             (["report", ctx.tmp, "--format", "xml"], "unknown format"),
             (["frobnicate"], "unknown command")]
    for args, text in cases:
        code, out, err = ctx.distlint_rt(*args)
        lines = err.strip().splitlines()
        check(code == 2, f"{args}: exit {code}, want 2")
        check(len(lines) == 1 and text in lines[0], f"{args}: want one line with {text!r}: {err!r}")
    code, out, err = ctx.distlint_rt("report", ctx.tmp)
    check(code == 2 and "no distlint-rt traces" in err, f"empty dir: {code} {err!r}")


def special_missing_rank_text(ctx):
    """Acceptance: the report on a divergent 2-rank run names the missing
    rank and both call-sites (where rank 0 waits, where rank 1 left)."""
    traces = ctx.path("traces")
    code, out, err = ctx.distlint_rt("run", "--nproc", "2", "--timeout", str(TIMEOUT),
                                     "--out", traces, "--log-dir", ctx.path("logs"), "--",
                                     ctx.binary("early_return_buggy"))
    check(code == 1, f"run exited {code}: {err}")
    block = out.split("FIRST DIVERGENCE", 1)[-1].split("\n\n", 1)[0]
    check("rank 0 issued ncclAllReduce(count=256, float32, sum) at" in block and
          "early_return_buggy.cpp:16" in block, f"rank 0's call-site missing:\n{block}")
    check("rank 1 never issued collective #1" in block, f"missing rank not named:\n{block}")
    check("early_return_buggy.cpp:13" in block and "exited with code 0" in block,
          f"rank 1's call-site or exit missing:\n{block}")


SPECIAL = {
    "missing-rank-text": special_missing_rank_text,
    "missing-real-library": special_missing_real_library,
    "abort-on-hang": special_abort_on_hang,
    "report-formats": special_report_formats,
    "join-fixture": special_join_fixture,
    "join-distlint": special_join_distlint,
    "no-trace-without-calls": special_no_trace_without_calls,
    "usage-errors": special_usage_errors,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    with open(args.config, encoding="utf-8") as fh:
        config = json.load(fh)
    kind, _, name = args.case.partition("/")
    ctx = Context(config)
    try:
        if kind == "nccl":
            nccl_case(ctx, os.path.join(config["repo"], "testdata/rank-divergent/nccl",
                                        name + ".cpp"), name)
        elif kind == "program":
            nccl_case(ctx, os.path.join(config["repo"], "tests/runtime/programs",
                                        name + ".cpp"), name)
        elif kind == "mpi":
            if name.startswith("mpi_testdata_"):
                source = os.path.join(config["repo"], "testdata/rank-divergent/mpi",
                                      name[len("mpi_testdata_"):] + ".cpp")
            else:
                source = os.path.join(config["repo"], "tests/runtime/programs", name + ".c")
            mpi_case(ctx, source, name)
        elif kind == "special" and name in SPECIAL:
            SPECIAL[name](ctx)
        else:
            print(f"unknown case {args.case}")
            return 2
    except Failure as failure:
        print(f"FAIL {args.case}: {failure}")
        print(f"(files in {ctx.tmp})")
        return 1
    finally:
        if not args.keep:
            ctx.cleanup()
    print(f"PASS {args.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
