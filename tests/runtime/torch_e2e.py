#!/usr/bin/env python3
"""LibTorch process groups under distlint-rt run, on CPU (issue 12).

Every testdata program labelled `// run: gloo buggy|clean` (LibTorch 1.13)
that creates a process group, and the example trainers, run as 2 ranks under `distlint-rt run`:

- programs with `// expect: distlint-rank-divergent-collective` must be
  reported as a divergence at one of the expected lines (the run ends at the
  first one), with a position for both ranks; joined with
  `distlint --format=json`, that finding is "confirmed" and none of the
  expected ones is "reached uniformly";
- the others must finish with the exit codes and per-rank output they have
  without the recorder, the report clean ("reached uniformly"), and no
  finding "confirmed".

  torch_e2e.py --config e2e-config.json --work DIR [--filter RE] [--live-only]

The binaries are the ones the torch stage built and cached (torch.gloo_proofs
and torch.example, which ctest runs first: both build with line tables), so
nothing is compiled twice. Exit 77 = skipped, with the reason.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "tests" / "torch"))
import torch_stage  # noqa: E402

DIVERGENT_RULE = "distlint-rank-divergent-collective"
GLOO_TIMEOUT_MS = 3000   # the programs' process-group timeout
# Acceptance 3 (Gloo): seen while the job runs, within 2 s, 300 s timeout.
LIVE_PROGRAM = "testdata/rank-divergent/c10d/checkpoint_barrier_rank0_buggy.cpp"
LIVE_LIMIT = 2.0


def log(msg):
    print(msg, flush=True)


def run(cmd, env, timeout, cwd=None):
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


class Runner:
    def __init__(self, cfg, work):
        self.cfg = cfg
        self.work = Path(work)

    def env(self, tmp):
        env = dict(os.environ)
        env.pop("LD_PRELOAD", None)
        env.update({"DISTLINT_STORE_FILE": str(tmp / "store"),
                    "DISTLINT_TEST_TIMEOUT_MS": str(GLOO_TIMEOUT_MS),
                    "OMP_NUM_THREADS": "1"})
        return env

    def baseline(self, argv, tmp):
        """Both ranks without the recorder: exit codes and outputs."""
        env = self.env(tmp)
        env.update({"WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1",
                    "MASTER_PORT": str(torch_stage.free_port())})
        procs = []
        for rank in range(2):
            procs.append(subprocess.Popen(
                argv, env=dict(env, RANK=str(rank), LOCAL_RANK=str(rank)), cwd=tmp,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                start_new_session=True))
        results = []
        for p in procs:
            try:
                out, _ = p.communicate(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 9)
                out, _ = p.communicate()
            results.append((p.returncode, out))
        return results

    def under_rt(self, argv, tmp, timeout_s, abort, hold_exit=True):
        """With abort (divergent programs), a rank that reaches exit is held
        there with its sockets open (tests/torch/support/keep_peer_alive.c),
        as a rank busy elsewhere in a real job would be; otherwise its peer
        sees the connection close at once instead of waiting."""
        traces, logs = tmp / "traces", tmp / "logs"
        env = self.env(tmp)
        if abort and hold_exit:
            (tmp / "alive").mkdir(exist_ok=True)
            # distlint-rt itself runs with this LD_PRELOAD: in a sanitized
            # build the runtime (first of the preload list) must come first.
            sanitizer_runtime = self.cfg["preload"].split(":")[:-1]
            env.update({"LD_PRELOAD": ":".join(sanitizer_runtime + [str(self.keep_alive)]),
                        "DISTLINT_KEEP_ALIVE_DIR":
                        str(tmp / "alive"), "DISTLINT_KEEP_ALIVE_MS": "20000"})
        cmd = [self.cfg["distlint_rt"], "run", "--nproc", "2", "--timeout", str(timeout_s),
               "--max-time", "80", "--out", str(traces), "--log-dir", str(logs),
               "--format", "json"] + (["--abort"] if abort else []) + ["--"] + argv
        code, out, err = run(cmd, env, 100, cwd=tmp)
        try:
            report = json.loads(out)
        except ValueError:
            report = None
        outputs = []
        for rank in range(2):
            path = logs / ("rank%d.out" % rank)
            outputs.append(path.read_text() if path.exists() else "")
        return code, report, err, traces, outputs

    def findings(self, source, flags):
        if not self.cfg.get("distlint"):
            return None
        out = subprocess.run([self.cfg["distlint"], "--format=json", "--quiet", str(source),
                              "--"] + flags, capture_output=True, text=True, cwd=REPO)
        try:
            return json.loads(out.stdout)
        except ValueError:
            return None

    def join(self, traces, findings, tmp):
        path = tmp / "findings.json"
        path.write_text(json.dumps(findings))
        code, out, err = run([self.cfg["distlint_rt"], "report", str(traces), "--findings",
                              str(path), "--format", "json"], self.env(tmp), 60)
        return json.loads(out) if out.strip().startswith("{") else None


def report_lines(report, name):
    """(rank, line) pairs of the first divergence's positions in file `name`."""
    pos = set()
    if not report or not report["divergences"]:
        return pos
    first = report["divergences"][0]

    def add(rank, op):
        for frame in (op or {}).get("frames", []):
            if os.path.basename(frame["file"]) == name:
                pos.add((rank, frame["line"]))

    for op in first["issued"]:
        add(op["rank"], op)
    for missing in first["missing"]:
        for key in ("blocked_in", "last", "last_call"):
            add(missing.get("rank"), missing.get(key))
    return pos


def judge(runner, source, argv, expected, flags, label, tmp, hold_exit=True):
    """Returns a list of problems (empty: passed) and a one-line summary."""
    problems = []
    name = source.name
    divergent = bool(expected)
    base = None if divergent else runner.baseline(argv, tmp / "base")
    start = time.time()
    code, report, err, traces, outputs = runner.under_rt(
        argv, tmp, 300 if divergent else 60, abort=divergent, hold_exit=hold_exit)
    wall = time.time() - start
    if report is None:
        return ["distlint-rt run printed no JSON report (exit %s): %s" % (
            code, err.strip()[-800:])], ""
    summary = "exit %s, %.1f s" % (code, wall)
    if divergent:
        if code != 1 or report["clean"] or not report["divergences"]:
            problems.append("not reported as a divergence (exit %s): %s" % (
                code, json.dumps(report)[:1500]))
        pos = report_lines(report, name)
        ranks = {r for r, _ in pos}
        if not set(expected) & {l for _, l in pos}:
            problems.append("divergence not at %s:%s (positions %s)" % (
                name, expected, sorted(pos)))
        if ranks != {0, 1}:
            problems.append("divergence lacks a position in %s for both ranks: %s" % (
                name, sorted(pos)))
        if report.get("live"):
            latency = min(l["latency_seconds"] for l in report["live"])
            summary += ", seen live after %.2f s" % latency
            if latency >= LIVE_LIMIT:
                problems.append("seen live only after %.2f s" % latency)
        elif source.resolve() == (REPO / LIVE_PROGRAM).resolve():
            problems.append("not seen while the job ran (%s)" % err.strip()[-600:])
    else:
        want_codes = [c for c, _ in base]
        if code != (0 if all(c == 0 for c in want_codes) else 1):
            problems.append("exit %s, without the recorder the ranks exited %s: %s" % (
                code, want_codes, err.strip()[-800:]))
        if not report["clean"] and all(c == 0 for c in want_codes):
            problems.append("report not clean: %s" % json.dumps(report)[:1500])
        if [o for _, o in base] != outputs and not timing_dependent(source, outputs):
            problems.append("output differs with the recorder:\n--- without\n%s\n--- with\n%s"
                            % ([o for _, o in base], outputs))
        if not any(s["op"].startswith("ProcessGroup::") for s in report.get("sites", [])):
            problems.append("no process-group call was recorded")
    findings = runner.findings(source, flags)
    if findings is None:
        summary += ", no join (distlint not built)"
        return problems, summary
    joined = runner.join(traces, findings, tmp)
    verdicts = {}
    for f in (joined or {}).get("findings", []):
        verdicts.setdefault((f["line"], f["rule"]), set()).add(f["verdict"])
    confirmed = [l for (l, rule), got in verdicts.items()
                 if rule == DIVERGENT_RULE and got == {"confirmed"}]
    if divergent and not set(confirmed) & set(expected):
        problems.append("join: none of %s:%s confirmed: %s" % (name, expected, verdicts))
    for (line, rule), got in sorted(verdicts.items()):
        if rule == DIVERGENT_RULE and divergent and "reached uniformly" in got:
            problems.append("join: %s:%d %s is %s in a divergent run" % (name, line, rule, got))
        if not divergent and "confirmed" in got:
            problems.append("join: %s:%d %s confirmed in a run without divergence" % (
                name, line, rule))
    for line in expected:
        if (line, DIVERGENT_RULE) not in verdicts:
            problems.append("join: no static finding at %s:%d" % (name, line))
    summary += ", join: %s" % ", ".join(
        "%d %s" % (l, "/".join(sorted(v))) for (l, _), v in sorted(verdicts.items()))
    return problems, summary


CLOCK = re.compile(r"\b(steady_clock|system_clock|high_resolution_clock|gettimeofday|clock_gettime)\b")


def timing_dependent(source, outputs):
    """A program that decides by the wall clock (a time budget) prints what
    the machine's speed allows, with or without the recorder; its ranks must
    still agree with each other."""
    if not CLOCK.search(source.read_text(errors="replace")):
        return False
    return len({re.sub(r"\brank \d+\b", "rank N", o) for o in outputs}) == 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--filter")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-example", action="store_true")
    args = parser.parse_args()
    cfg = json.loads(Path(args.config).read_text())
    if not torch_stage.TORCH_API_INCLUDE.is_dir() or not torch_stage.TORCH_C10D_INCLUDE.is_dir():
        log("SKIPPED: Debian's libtorch-dev is not installed (run scripts/setup.sh)")
        return 77
    # The last of the preload list (a sanitized build names its runtime first).
    if not (Path(cfg["preload"].split(":")[-1]).parent / "libdistlint-rt-torch.so").exists():
        log("SKIPPED: libdistlint-rt-torch.so was not built (no LibTorch headers at configure)")
        return 77
    work = Path(args.work).resolve()
    programs = [p for p in torch_stage.gloo_programs(args.filter)
                if p.run_label in ("buggy", "clean")]
    # Programs that never create a process group (the set-epoch ones only
    # shard data) give the recorder nothing to see.
    no_group = [p for p in programs if "ProcessGroup" not in p.text]
    programs = [p for p in programs if p not in no_group]
    for p in no_group:
        log("skip %s: creates no process group" % p.rel)
    # This stage runs 2 ranks; a program whose roles need more (`ranks=3`)
    # is proven with its own world size by the torch stage.
    wider = [p for p in programs if p.world_size != 2]
    programs = [p for p in programs if p not in wider]
    for p in wider:
        log("skip %s: needs %d ranks, this stage runs 2" % (p.rel, p.world_size))
    builder = torch_stage.Builder(work / "gloo")
    start = time.time()
    builder.build_pch()
    binaries, failed, passed = {}, 0, 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for program, result in zip(programs, pool.map(
                lambda p: _try(builder.build, p.path), programs)):
            if isinstance(result, Exception):
                failed += 1
                log("FAIL %s: does not build: %s" % (program.rel, result))
            else:
                binaries[program.rel] = result[0]
    log("built %d programs in %.0f s (cached ones are the torch stage's)" % (
        len(binaries), time.time() - start))
    runner = Runner(cfg, work)
    runner.keep_alive = builder.keep_alive_library()
    # The project's LibTorch declarations (what the testdata harness checks
    # the findings against): analyzing each program against the real headers
    # would take ~20 s of CPU per program.
    flags = ["-std=c++17", "-I", str(REPO / "testdata" / "include")]

    def one(program):
        tmp = Path(tempfile.mkdtemp(prefix="dlrt-torch-"))
        (tmp / "base").mkdir()
        try:
            expected = sorted(l for l, rule, _ in program.expected if rule == DIVERGENT_RULE)
            result = judge(runner, program.path, [str(binaries[program.rel])],
                           expected, flags + program.args, program.run_label, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if result[0] and not expected:
            # As in torch.gloo_proofs: a clean program may miss the 3 s
            # process-group timeout on a loaded machine (baseline included);
            # a real hang or a false divergence fails the second run too.
            log("     %s: clean run failed (%s), running it once more" % (
                program.rel, result[0][0].splitlines()[0][:200]))
            tmp = Path(tempfile.mkdtemp(prefix="dlrt-torch-"))
            (tmp / "base").mkdir()
            try:
                result = judge(runner, program.path, [str(binaries[program.rel])],
                               expected, flags + program.args, program.run_label, tmp)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return program, result

    runnable = [p for p in programs if p.rel in binaries]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for program, (problems, summary) in pool.map(one, runnable):
            if problems:
                failed += 1
                log("FAIL %s (%s): %s" % (program.rel, program.run_label, summary))
                for p in problems:
                    log("    " + p.replace("\n", "\n    "))
            else:
                passed += 1
                log("ok   %s (%s): %s" % (program.rel, program.run_label, summary))
    if not args.skip_example:
        p, f = example(runner, work, cfg)
        passed, failed = passed + p, failed + f
    log("%d passed, %d failed, 0 skipped (%.0f s)" % (passed, failed, time.time() - start))
    return 1 if failed or not passed else 0


def _try(fn, *a):
    try:
        return fn(*a)
    except Exception as e:  # noqa: BLE001 - reported as a failed build
        return e


def example(runner, work, cfg):
    """The example trainers as torch.example built them (with line tables:
    file:line in the report; a no-op when that stage ran first); the
    trainers' ranks both stay in the job, so no rank is held at exit."""
    build = work / "examples"
    start = time.time()
    for step in (torch_stage.configure_examples, lambda b: torch_stage.build_examples(b, 2)):
        proc = step(build)
        if proc.returncode != 0:
            log("FAIL examples/ does not build:\n%s" % (proc.stdout + proc.stderr)[-2000:])
            return 0, 1
    log("example trainers configured and built in %.0f s" % (time.time() - start))
    passed = failed = 0
    for name, source in (("ddp_trainer_fixed", "train_ddp_fixed.cpp"),
                         ("ddp_trainer", "train_ddp.cpp")):
        program = torch_stage.Program(REPO / "examples" / source)
        expected = sorted(l for l, rule, _ in program.expected if rule == DIVERGENT_RULE)
        # As for the clean testdata programs: the fixed trainer may miss the
        # 3 s process-group timeout on a loaded machine, so a failed clean run
        # is repeated once; a real hang or false divergence fails both runs.
        for attempt in (1, 2):
            tmp = Path(tempfile.mkdtemp(prefix="dlrt-example-"))
            (tmp / "base").mkdir()
            argv = [str(build / name), "--epochs", "2", "--timeout-ms", str(GLOO_TIMEOUT_MS),
                    "--store", str(tmp / "trainer-store"), "--checkpoint-dir", str(tmp)]
            try:
                flags = ["-std=c++17", "-I", str(REPO / "testdata" / "include"),
                         "-I", str(REPO / "examples")]
                problems, summary = judge(_ExampleRunner(runner, build), program.path, argv,
                                          expected, flags, "buggy" if expected else "clean",
                                          tmp, hold_exit=False)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
            if not problems or expected or attempt == 2:
                break
            log("     examples/%s: clean run failed (%s), running it once more" % (
                source, problems[0].splitlines()[0][:200]))
        if problems:
            failed += 1
            log("FAIL examples/%s: %s" % (source, summary))
            for p in problems:
                log("    " + p.replace("\n", "\n    "))
        else:
            passed += 1
            log("ok   examples/%s: %s" % (source, summary))
    return passed, failed


class _ExampleRunner:
    """The example is analyzed through its compile_commands.json."""

    def __init__(self, runner, build):
        self.r, self.build = runner, build

    def __getattr__(self, name):
        return getattr(self.r, name)

    def findings(self, source, flags):
        if not self.r.cfg.get("distlint"):
            return None
        out = subprocess.run([self.r.cfg["distlint"], "--format=json", "--quiet",
                              str(source), "--"] + flags, capture_output=True, text=True,
                             cwd=REPO)
        try:
            return json.loads(out.stdout)
        except ValueError:
            return None


if __name__ == "__main__":
    sys.exit(main())
