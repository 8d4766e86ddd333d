#!/usr/bin/env python3
"""PyTorch jobs written in Python under distlint-rt run (issue 27).

  python_e2e.py --config e2e-config.json --case program/<name>|detail|counts

program/<name>  runs testdata/python/<name>.py as 2 ranks (Gloo on loopback)
                under `distlint-rt run --abort` and checks the verdict the
                program states inline:
                  # expect: divergence   the first divergence names, for each
                      rank, the line marked `# <- rank N` (file:line), the live
                      line on stderr names both, and the job ends early;
                  # expect: clean        exit 0, no divergence;
                  # expect: set-epoch N  the startup hook's finding at the
                      line marked `# <- set-epoch` (the `for` over the loader);
                  # expect: no-timeout S the finding at `# <- no-timeout` with
                      the default S seconds of the installed torch;
                  # expect: item-per-step K  .item() at `# <- item`, K per step.
detail          runs every divergent program with TORCH_DISTRIBUTED_DEBUG=DETAIL
                and without distlint-rt: PyTorch's own check must find the
                mismatch too (it is recorded beside distlint-rt's result).
versions        no torch: a ctypes program calling the NCCL stand-in, under every
                CPython found (/usr/bin/python3, pyenv's): 3.9-3.13 get Python
                call-sites, older ones native ones and one line saying why.
native-thread   no torch: an all-reduce on a native thread while a backward()
                line is published is reported at that line, as LibTorch's.
dir-named-torch a program under a directory named torch/ keeps its lines.
three-ranks     3 ranks: the live line names the ranks that agree with each side.
torchrun        torchrun (python3 -m torch.distributed.run) as the launcher, with
                LD_PRELOAD, PYTHONPATH and DISTLINT_RT_* set by hand: the
                divergence at both ranks' lines; DISTLINT_RT_ABORT ends the job.
counts          bytes each rank receives on its Gloo connections, with and
                without distlint-rt (equal: it sends nothing) and with DETAIL
                (more: its fingerprint collectives), per clean program.

Torch comes from Debian's python3-torch under /usr/bin/python3
($DISTLINT_TORCH_PYTHON overrides); without it the test FAILS (scripts/setup.sh
installs it).
"""
import argparse
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
PROGRAMS = REPO / "testdata" / "python"
TORCH_PYTHON = os.environ.get("DISTLINT_TORCH_PYTHON", "/usr/bin/python3")
RUN_TIMEOUT = 20       # distlint-rt run --timeout
LIVE_END_LIMIT = 30.0  # an aborted divergent job ends well before Gloo's 60 s


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def log(msg):
    print(msg, flush=True)


def need_torch():
    try:
        out = subprocess.run([TORCH_PYTHON, "-c", "import torch, torch.distributed as d;"
                              "print(torch.__version__, d.is_gloo_available())"],
                             capture_output=True, text=True, timeout=120)
    except OSError as e:
        out = None
        why = str(e)
    if out is None or out.returncode != 0 or not out.stdout.strip().endswith("True"):
        why = out.stderr.strip().splitlines()[-1] if out and out.stderr.strip() else "no torch"
        raise Failure(f"{TORCH_PYTHON} cannot import torch with Gloo ({why}): install Debian's "
                      "python3-torch (scripts/setup.sh does)")
    log(f"torch {out.stdout.strip().split()[0]} under {TORCH_PYTHON}")


def expectations_marks(path):
    """The `# <- label` marks of a file that states no verdict."""
    text = path.read_text(encoding="utf-8")
    marks = {}
    for number, line in enumerate(text.splitlines(), start=1):
        m = re.search(r"# <- (.+)$", line)
        if m:
            marks.setdefault(m.group(1).strip(), number)
    return None, marks


def expectations(path):
    text = path.read_text(encoding="utf-8")
    expect = {}
    for m in re.finditer(r"^# expect: (\S+)(?: (\S+))?$", text, re.M):
        expect[m.group(1)] = m.group(2)
    marks = {}  # label -> its first line; all_marks: label -> every line
    all_marks = {}
    for number, line in enumerate(text.splitlines(), start=1):
        m = re.search(r"# <- (.+)$", line)
        if m:
            for label in m.group(1).split(","):
                marks.setdefault(label.strip(), number)
                all_marks.setdefault(label.strip(), []).append(number)
    marks["all"] = all_marks
    check(expect, f"{path.name}: no `# expect:` line")
    return expect, marks


def run(cmd, env, timeout, cwd):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        raise Failure(f"{' '.join(cmd)}: still running after {timeout} s\n{out}\n{err}")
    return proc.returncode, out, err, time.monotonic() - start


def base_env():
    env = dict(os.environ)
    for key in ("LD_PRELOAD", "PYTHONPATH", "TORCH_DISTRIBUTED_DEBUG"):
        env.pop(key, None)
    env["OMP_NUM_THREADS"] = "1"
    return env


def rt_run(cfg, program, work, extra_env=None, args=(), nproc=2):
    env = base_env()
    env.update(extra_env or {})
    cmd = [cfg["distlint_rt"], "run", "--nproc", str(nproc), "--timeout", str(RUN_TIMEOUT),
           "--max-time", "120", "--out", str(work / "traces"), *args, "--",
           TORCH_PYTHON, str(program)]
    code, out, err, took = run(cmd, env, 180, work)
    rep = subprocess.run([cfg["distlint_rt"], "report", str(work / "traces"), "--format", "json"],
                         capture_output=True, text=True, cwd=work)
    check(rep.stdout.strip(), f"report --format json printed nothing: {rep.stderr}")
    return code, out, err, took, json.loads(rep.stdout)


def site_of(op):
    return op.get("file"), op.get("line")


def check_divergence(name, path, marks, code, out, err, took, report):
    log(out)
    check(code == 1, f"{name}: exit {code}, expected 1 (a divergence)\n{err[-3000:]}")
    divs = [d for d in report["divergences"] if d.get("first")] or report["divergences"]
    check(divs, f"{name}: no divergence in the report\n{out}")
    first = divs[0]
    by_rank = {op["rank"]: op for op in first.get("issued", [])}
    for rank in (0, 1):
        want = marks.get(f"rank {rank}")
        check(want, f"{name}: no `# <- rank {rank}` mark")
        op = by_rank.get(rank)
        check(op, f"{name}: the first divergence has no operation of rank {rank}: {first}")
        got = site_of(op)
        check(got == (str(path), want),
              f"{name}: rank {rank} at {got}, expected {path.name}:{want}")
        check(op.get("python") in ("call", "backward"),
              f"{name}: rank {rank}'s site is not marked as a Python line: {op}")
        check(op.get("native"), f"{name}: rank {rank} keeps no native frame: {op}")
        log(f"  rank {rank}: {op['description']} at {path.name}:{want} ({op['python']}, native "
            f"{op['native']})")
    live = [l for l in err.splitlines() if ": divergence on communicator" in l]
    check(live, f"{name}: no live divergence line on stderr\n{err[-3000:]}")
    for rank in (0, 1):
        check(any(f"{path.name}:{marks[f'rank {rank}']} in " in l for l in live),
              f"{name}: the live line does not name rank {rank}'s line {marks[f'rank {rank}']}:"
              f"\n" + "\n".join(live))
    check(report.get("live"), f"{name}: the report has no live record")
    latency = min(l["latency_seconds"] for l in report["live"])
    check(latency < 1.0, f"{name}: reported {latency:.2f} s after the divergence (limit 1 s)")
    check(took < LIVE_END_LIMIT, f"{name}: --abort took {took:.1f} s to end the job")
    log(f"  live: {live[0]}\n  reported {latency:.3f} s after the divergence; job ended after "
        f"{took:.1f} s")


def python_checks(report):
    return report.get("python_checks", [])


def check_clean(name, code, out, err, report):
    check(code == 0, f"{name}: exit {code}, expected 0\n{out}\n{err[-3000:]}")
    check(not report["divergences"], f"{name}: divergences in a clean run: {report['divergences']}")
    check(not report["hangs"], f"{name}: hangs in a clean run")
    colls = sum(c.get("agreed", 0) for c in report.get("communicators", []))
    log(f"  clean: exit 0, {colls} collective(s) agreed")


def check_sites(name, path, report, lines):
    """Every marked line is a recorded c10d call-site on both ranks."""
    check(lines, f"{name}: no `# <- site` mark")
    for line in lines:
        at = [s for s in report["sites"] if (s.get("file"), s.get("line")) == (str(path), line)
              and s.get("op", "").startswith("ProcessGroup::")]
        check(at, f"{name}: no collective recorded at {path.name}:{line}")
        check(all(s.get("python") for s in at),
              f"{name}: {path.name}:{line} is not marked as a Python line: {at}")
        for rank in ("0", "1"):
            check(sum(s["counts"].get(rank, 0) for s in at) > 0,
                  f"{name}: rank {rank} recorded nothing at {path.name}:{line}: {at}")
        log(f"  {path.name}:{line}: " + ", ".join(f"{s['op']} {s['counts']} {s['python']}"
                                                  for s in at))


def check_finding(name, path, report, kind, lines, detail=None):
    """Each rank has a `kind` entry at each of `lines`, and no other."""
    check(lines, f"{name}: no `# <- {kind}` mark")
    found = [c for c in python_checks(report) if c.get("check") == kind]
    check(found, f"{name}: no {kind} finding; python checks: {python_checks(report)}")
    for rank in (0, 1):
        mine = [c for c in found if c.get("rank") == rank]
        at = sorted(c.get("line") for c in mine if c.get("file") == str(path))
        if kind in ("set-epoch", "no-timeout"):
            check(at == sorted(lines) and len(mine) == len(lines),
                  f"{name}: rank {rank}'s {kind} findings at {[(c.get('file'), c.get('line')) for c in mine]}, "
                  f"expected {path.name} lines {lines}")
        for line in lines:
            c = [c for c in mine if (c.get("file"), c.get("line")) == (str(path), line)]
            check(c, f"{name}: rank {rank} has no {kind} at {path.name}:{line}: {mine}")
            if detail:
                detail(c[0])
            log(f"  rank {rank}: {path.name}:{line}: {c[0].get('message')}")


def case_program(cfg, name):
    need_torch()
    path = PROGRAMS / f"{name}.py"
    check(path.is_file(), f"no program {path}")
    expect, marks = expectations(path)
    with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
        work = Path(tmp)
        code, out, err, took, report = rt_run(cfg, path, work, args=("--abort",))
        if "divergence" in expect:
            check_divergence(name, path, marks, code, out, err, took, report)
        if "clean" in expect:
            check_clean(name, code, out, err, report)
        if "set-epoch" in expect or "no-timeout" in expect:
            check(code == 1 and not report["divergences"],
                  f"{name}: exit {code} with divergences {report['divergences']}; expected 1 for "
                  f"the Python findings alone\n{err[-2000:]}")
        if "set-epoch" in expect:
            epoch = int(expect["set-epoch"])
            check_finding(name, path, report, "set-epoch", marks["all"].get("set-epoch"),
                          lambda c: check(c.get("epoch") == epoch,
                                          f"{name}: epoch {c.get('epoch')}, expected {epoch}"))
        if "no-timeout" in expect:
            seconds = int(expect["no-timeout"])
            check_finding(name, path, report, "no-timeout", marks["all"].get("no-timeout"),
                          lambda c: check(c.get("default_seconds") == seconds,
                                          f"{name}: default {c.get('default_seconds')} s, "
                                          f"expected {seconds}"))
        if "item-per-step" in expect:
            per_step = float(expect["item-per-step"])

            def item_count(c):
                check(c.get("steps", 0) > 0, f"{name}: no training steps counted: {c}")
                check(abs(c["count"] / c["steps"] - per_step) < 1e-9,
                      f"{name}: {c['count']} .item() in {c['steps']} steps, expected "
                      f"{per_step} per step")
            check_finding(name, path, report, "item", marks["all"].get("item"), item_count)
        if "sites" in expect:
            check_sites(name, path, report, marks["all"].get("site"))
        if "clean" in expect:
            wrong = [c for c in python_checks(report) if c.get("defect")]
            check(not wrong, f"{name}: Python findings in a clean program: {wrong}")


def divergent_programs():
    return sorted(p for p in PROGRAMS.glob("*.py") if "divergence" in expectations(p)[0])


def spawn_plain(program, env, work, wrapper=None):
    """Both ranks without distlint-rt, torchrun's variables set by hand."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []
    for rank in (0, 1):
        e = dict(env)
        e.update({"RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": "2",
                  "LOCAL_WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})
        cmd = [TORCH_PYTHON] + ([str(wrapper)] if wrapper else []) + [str(program)]
        procs.append(subprocess.Popen(cmd, env=e, cwd=work, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, start_new_session=True))
    results = []
    deadline = time.monotonic() + 150
    for p in procs:
        try:
            out, err = p.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, err = p.communicate()
        results.append((p.returncode, out, err))
    return results


class Skipped(Exception):
    pass


def heavy_only(programs):
    """The comparisons with PyTorch's DETAIL mode and the byte counts run with
    DISTLINT_HEAVY=1 (the default CI run has 30 minutes on 2 cores)."""
    if os.environ.get("DISTLINT_HEAVY") != "1":
        raise Skipped("heavy test; run with DISTLINT_HEAVY=1")
    return list(programs)


def case_detail(cfg):
    need_torch()
    rows = []
    for path in heavy_only(divergent_programs()):
        with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
            env = base_env()
            env["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
            results = spawn_plain(path, env, tmp)
            said = [("Detected mismatch between collectives" in err) for _, _, err in results]
            code, out, err, took, report = rt_run(cfg, path, Path(tmp), args=("--abort",))
            ours = bool(report["divergences"])
            rows.append((path.name, said, ours))
            log(f"{path.name}: DETAIL found the mismatch on ranks "
                f"{[r for r, s in enumerate(said) if s]}; distlint-rt: "
                f"{'divergence' if ours else 'nothing'}")
            check(all(said), f"{path.name}: TORCH_DISTRIBUTED_DEBUG=DETAIL did not report the "
                  f"mismatch on every rank ({said}):\n"
                  + "\n".join(e[-1500:] for _, _, e in results))
            check(ours, f"{path.name}: distlint-rt reported no divergence")


COUNTER = """
import os, runpy, socket, struct, sys
import torch.distributed as dist

def gloo_bytes():
    store = int(os.environ["MASTER_PORT"])
    total = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            if not os.readlink(f"/proc/self/fd/{fd}").startswith("socket:"):
                continue
            s = socket.socket(fileno=os.dup(int(fd)))
        except OSError:
            continue
        try:
            if s.family not in (socket.AF_INET, socket.AF_INET6) or s.type != socket.SOCK_STREAM:
                continue
            peer, local = s.getpeername()[1], s.getsockname()[1]
            if store in (peer, local):
                continue  # the TCPStore (rendezvous polling varies run to run)
            info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
            total += struct.unpack_from("Q", info, 128)[0]  # tcpi_bytes_received
        except OSError:
            pass
        finally:
            s.close()
    return total

real_destroy = dist.destroy_process_group
def destroy(*a, **k):
    import time
    got = gloo_bytes()
    for _ in range(20):  # seen once on a loaded machine: no socket listed yet
        if got:
            break
        time.sleep(0.05)
        got = gloo_bytes()
    print(f"GLOO_BYTES rank={dist.get_rank()} received={got}", flush=True)
    return real_destroy(*a, **k)
dist.destroy_process_group = destroy
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def received(outputs):
    got = {}
    for text in outputs:
        for m in re.finditer(r"GLOO_BYTES rank=(\d+) received=(\d+)", text):
            got[int(m.group(1))] = int(m.group(2))
    return got


def case_counts(cfg):
    need_torch()
    # The clean twins of the divergent programs.
    programs = sorted(p.with_name(p.name.replace("_buggy.py", "_clean.py"))
                      for p in divergent_programs())
    programs = [p for p in programs if p.is_file() and "clean" in expectations(p)[0]]
    check(programs, "no clean programs")
    for path in heavy_only(programs):
        with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
            work = Path(tmp)
            wrapper = work / "count_gloo_bytes.py"
            wrapper.write_text(COUNTER)
            plain = received(out for _, out, _ in spawn_plain(path, base_env(), work, wrapper))
            env = base_env()
            env["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"
            detail = received(out for _, out, _ in spawn_plain(path, env, work, wrapper))
            cmd = [cfg["distlint_rt"], "run", "--nproc", "2", "--timeout", str(RUN_TIMEOUT),
                   "--out", str(work / "traces"), "--", TORCH_PYTHON, str(wrapper), str(path)]
            code, out, err, _ = run(cmd, base_env(), 180, work)
            check(code == 0, f"{path.name}: exit {code} under distlint-rt\n{err[-2000:]}")
            ours = received([out])
            rep = json.loads(subprocess.run(
                [cfg["distlint_rt"], "report", str(work / "traces"), "--format", "json"],
                capture_output=True, text=True, cwd=work).stdout)
            colls = {c["id"]: c.get("agreed") for c in rep["communicators"]}
            log(f"{path.name}: bytes received on Gloo connections per rank: plain {plain}, "
                f"distlint-rt {ours}, DETAIL {detail}; collectives distlint-rt recorded {colls}")
            for rank in (0, 1):
                check(rank in plain and rank in ours and rank in detail,
                      f"{path.name}: rank {rank} did not report its bytes")
                check(plain[rank] > 0, f"{path.name}: no Gloo traffic measured on rank {rank}")
                check(ours[rank] == plain[rank],
                      f"{path.name}: rank {rank} received {ours[rank]} bytes under distlint-rt, "
                      f"{plain[rank]} without: distlint-rt changed the job's communication")
                check(detail[rank] > plain[rank],
                      f"{path.name}: DETAIL added no traffic on rank {rank} ({detail[rank]})")


def case_three_ranks(cfg):
    """The live line names the ranks that agree with each side."""
    need_torch()
    path = PROGRAMS / "rank0_extra_barrier_buggy.py"
    _, marks = expectations(path)
    with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
        code, out, err, took, report = rt_run(cfg, path, Path(tmp), args=("--abort",), nproc=3)
        check(code == 1 and report["divergences"], f"no divergence with 3 ranks\n{err[-3000:]}")
        by_rank = {op["rank"]: site_of(op) for op in report["divergences"][0]["issued"]}
        want = {0: marks["rank 0"], 1: marks["rank 1"], 2: marks["rank 1"]}
        for rank, line in want.items():
            check(by_rank.get(rank) == (str(path), line),
                  f"rank {rank} at {by_rank.get(rank)}, expected line {line}")
        live = [l for l in err.splitlines() if ": divergence on communicator" in l]
        agree = [l for l in live if re.search(r"rank\(s\) [12] agree with (this rank|rank [12])", l)]
        check(agree, "no live line names the ranks that agree:\n" + "\n".join(live))
        log(f"3 ranks: {agree[0][agree[0].index('; rank(s)'):]} (ranks 1 and 2 issue the "
            f"gradient all-reduce at line {marks['rank 1']}, rank 0 the barrier at {marks['rank 0']})")


def interpreters():
    """CPythons on this machine: /usr/bin/python3, pyenv's, $DISTLINT_TEST_PYTHONS."""
    found = [TORCH_PYTHON] + sorted(str(p) for p in Path.home().glob(".pyenv/versions/3.*/bin/python3"))
    found += [p for p in os.environ.get("DISTLINT_TEST_PYTHONS", "").split(":") if p]
    seen, out = set(), []
    for exe in found:
        try:
            v = subprocess.run([exe, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                               capture_output=True, text=True, timeout=60).stdout.split()
        except OSError:
            continue
        if len(v) == 2 and (v[0], v[1]) not in seen and v[0] == "3":
            seen.add((v[0], v[1]))
            out.append((exe, int(v[1])))
    return out


def case_versions(cfg, standin):
    """Python call-sites on every CPython found, through the NCCL stand-in
    called with ctypes (no torch needed): 3.9-3.13 name both ranks' lines,
    older ones keep native call-sites and say why, once per rank."""
    path = REPO / "tests" / "runtime" / "programs" / "nccl_ctypes.py"
    _, marks = expectations_marks(path)
    pythons = interpreters()
    check(any(9 <= minor <= 13 for _, minor in pythons),
          f"no CPython 3.9-3.13 found: {pythons}")
    for exe, minor in pythons:
        with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
            work = Path(tmp)
            env = base_env()
            env.update({"DLRT_STANDIN_DIR": standin, "NCCL_ID_FILE": str(work / "nccl-id")})
            cmd = [cfg["distlint_rt"], "run", "--nproc", "2", "--timeout", "10", "--abort",
                   "--out", str(work / "traces"), "--", exe, str(path)]
            code, out, err, took = run(cmd, env, 120, work)
            rep = subprocess.run([cfg["distlint_rt"], "report", str(work / "traces"), "--format",
                                  "json"], capture_output=True, text=True, cwd=work)
            report = json.loads(rep.stdout)
            check(report["divergences"], f"3.{minor}: no divergence\n{err[-2000:]}")
            by_rank = {op["rank"]: op for op in report["divergences"][0]["issued"]}
            if 9 <= minor <= 13:
                for rank in (0, 1):
                    op = by_rank.get(rank, {})
                    check(site_of(op) == (str(path), marks[f"rank {rank}"]),
                          f"3.{minor}: rank {rank} at {site_of(op)}, expected line "
                          f"{marks[f'rank {rank}']} ({exe})")
                log(f"CPython 3.{minor} ({exe}): rank 0 at line {marks['rank 0']}, rank 1 at line "
                    f"{marks['rank 1']}")
            else:
                said = [l for l in err.splitlines() if "call-sites stay native" in l]
                check(len(said) == 2 and f"Python 3.{minor}." in said[0],
                      f"3.{minor}: expected one 'call-sites stay native' line per rank: {said}")
                check(all(not op.get("python") for op in by_rank.values()),
                      f"3.{minor}: Python sites recorded on an unsupported version")
                log(f"CPython 3.{minor} ({exe}): native call-sites, said once per rank")


def case_native_thread(cfg, standin, helper):
    """A collective on a native thread (no Python thread state) is attributed
    to the line published as the running backward(), marked as such; the
    thread never takes the GIL (the job finishes)."""
    path = REPO / "tests" / "runtime" / "programs" / "nccl_native_thread.py"
    _, marks = expectations_marks(path)
    with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
        work = Path(tmp)
        env = base_env()
        env.update({"DLRT_STANDIN_DIR": standin, "DLRT_NATIVE_THREAD_LIB": helper,
                    "NCCL_ID_FILE": str(work / "nccl-id")})
        cmd = [cfg["distlint_rt"], "run", "--nproc", "2", "--timeout", "10", "--abort",
               "--out", str(work / "traces"), "--", TORCH_PYTHON, str(path)]
        code, out, err, took = run(cmd, env, 120, work)
        report = json.loads(subprocess.run(
            [cfg["distlint_rt"], "report", str(work / "traces"), "--format", "json"],
            capture_output=True, text=True, cwd=work).stdout)
        check(report["divergences"], f"no divergence\n{out}\n{err[-2000:]}")
        for op in report["divergences"][0]["issued"]:
            check(site_of(op) == (str(path), marks["both"]) and op.get("python") == "backward-thread",
                  f"rank {op['rank']}: {site_of(op)} ({op.get('python')}), expected line "
                  f"{marks['both']} as backward-thread")
        text = subprocess.run([cfg["distlint_rt"], "report", str(work / "traces")],
                              capture_output=True, text=True, cwd=work).stdout
        check("issued by a LibTorch thread while the backward() there ran" in text,
              f"the report does not say the thread worked for backward():\n{text}")
        log(f"native thread: both ranks at line {marks['both']}, marked backward-thread")


def case_dir_named_torch(cfg):
    """A program in a directory named torch/ is the user's code, not torch's."""
    need_torch()
    source = PROGRAMS / "rank0_logging_allreduce_buggy.py"
    _, marks = expectations(source)
    with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
        work = Path(tmp)
        (work / "torch").mkdir()
        path = work / "torch" / source.name
        shutil.copy(source, path)
        code, out, err, took, report = rt_run(cfg, path, work, args=("--abort",))
        check(report["divergences"], f"no divergence\n{err[-2000:]}")
        for op in report["divergences"][0]["issued"]:
            want = marks[f"rank {op['rank']}"]
            check(site_of(op) == (str(path), want),
                  f"rank {op['rank']} at {site_of(op)}, expected {path}:{want}")
        log(f"{path}: both ranks at their lines")


def case_torchrun(cfg):
    """torchrun as the launcher: the preload and the hook set by hand (README)."""
    need_torch()
    path = PROGRAMS / "rank0_extra_barrier_buggy.py"
    _, marks = expectations(path)
    preload = cfg["preload"]
    hook = Path(preload.split(":")[-1]).parent / "distlint-rt-python"
    check((hook / "sitecustomize.py").is_file(), f"no startup hook in {hook}")
    with tempfile.TemporaryDirectory(prefix="dlrt-py-") as tmp:
        work = Path(tmp)
        env = base_env()
        env.update({"LD_PRELOAD": preload, "PYTHONPATH": str(hook),
                    "DISTLINT_RT_DIR": str(work / "traces"), "DISTLINT_RT_TIMEOUT": "20",
                    "DISTLINT_RT_ABORT": "1"})
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        # --redirects 1 --tee 1: torch 1.13's torchrun fails on CPython 3.11 with
        # its default (no redirection: Std.NONE is no longer an instance of Std).
        cmd = [TORCH_PYTHON, "-m", "torch.distributed.run", "--nproc_per_node", "2",
               "--master_port", str(port), "--redirects", "1", "--tee", "1", str(path)]
        code, out, err, took = run(cmd, env, 180, work)
        rep = subprocess.run([cfg["distlint_rt"], "report", str(work / "traces"), "--format",
                              "json"], capture_output=True, text=True, cwd=work)
        report = json.loads(rep.stdout)
        check(code != 0, "torchrun succeeded on a divergent program")
        check(report["divergences"], f"no divergence in the traces\n{err[-3000:]}")
        by_rank = {op["rank"]: op for op in report["divergences"][0]["issued"]}
        for rank in (0, 1):
            op = by_rank.get(rank)
            check(op and site_of(op) == (str(path), marks[f"rank {rank}"]),
                  f"rank {rank} at {op and site_of(op)}, expected line {marks[f'rank {rank}']}")
        check("ending this process (SIGTERM)" in out + err,
              "no rank ended itself with DISTLINT_RT_ABORT=1 under torchrun")
        check(took < LIVE_END_LIMIT, f"torchrun took {took:.1f} s with DISTLINT_RT_ABORT=1")
        log(f"torchrun: divergence at lines {marks['rank 0']} (rank 0) and {marks['rank 1']} "
            f"(rank 1), job ended after {took:.1f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--standin", help="directory of the NCCL/CUDA stand-ins (versions)")
    ap.add_argument("--native-thread-lib", help="native_thread_allreduce.c built (native-thread)")
    a = ap.parse_args()
    cfg = json.loads(Path(a.config).read_text())
    try:
        if a.case.startswith("program/"):
            case_program(cfg, a.case.split("/", 1)[1])
        elif a.case == "detail":
            case_detail(cfg)
        elif a.case == "counts":
            case_counts(cfg)
        elif a.case == "torchrun":
            case_torchrun(cfg)
        elif a.case == "three-ranks":
            case_three_ranks(cfg)
        elif a.case == "dir-named-torch":
            case_dir_named_torch(cfg)
        elif a.case == "versions":
            case_versions(cfg, a.standin)
        elif a.case == "native-thread":
            case_native_thread(cfg, a.standin, a.native_thread_lib)
        else:
            raise Failure(f"unknown case {a.case}")
    except Failure as e:
        print(f"FAIL: {e}", flush=True)
        return 1
    except Skipped as e:
        print(f"SKIPPED: {e}", flush=True)
        return 77
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
