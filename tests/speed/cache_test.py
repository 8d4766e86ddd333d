#!/usr/bin/env python3
"""The result cache end to end (issue 14), on a small MPI project:

  local    cold run stores, warm run replays byte-identical reports; editing a
           header re-analyzes exactly the TUs that include it; --no-cache
           neither reads nor writes; a second checkout at another path hits;
           --cache-size evicts; concurrent runs on one directory stay correct;
           a crashing TU is never cached (one errors entry every run).
  redis    a real redis-server on loopback: checkout 1 uploads, a clean
           checkout 2 with an empty local cache gets 100% remote hits;
           |read-only never writes.
  http     the same against nginx with WebDAV PUT on loopback.

Usage: cache_test.py --distlint BIN --case local|redis|http
Exit 77 (skipped) when the server binary is not installed.
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

from speedlib import STANDIN, STATS, TU, Failures, free_port, make_project, run, wait_port

SKIP = 77


def no_cache_report(distlint, project):
    return run(distlint, project, "--no-cache")[0]


def dir_size(path):
    total = 0
    for base, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(base, f))
    return total


def case_local(distlint, tmp, F):
    p1 = os.path.join(tmp, "checkout1")
    make_project(p1)
    cache = os.path.join(tmp, "cache")
    expected = no_cache_report(distlint, p1)
    F.check(expected.count('"rule"') == 4, "the project has 4 findings without cache",
            expected)

    cold, s, _ = run(distlint, p1, "--cache-dir", cache)
    F.check(s == dict(local=0, remote=0, miss=3, stored=3), "cold run: 3 misses, 3 stored",
            str(s))
    F.check(cold == expected, "cold report equals the uncached one")
    warm, s, err = run(distlint, p1, "--cache-dir", cache)
    F.check(s == dict(local=3, remote=0, miss=0, stored=0), "warm run: 3 hits", str(s))
    F.check(warm == expected, "warm report (replayed) is byte-identical")
    F.check("preamble" not in err or "built from" not in err,
            "a warm run builds no preamble", err)

    # A header edit invalidates exactly the TUs that include it.
    with open(os.path.join(p1, "include", "common.h"), "a") as fh:
        fh.write("inline void more() {}\n")
    after, s, err = run(distlint, p1, "--cache-dir", cache)
    F.check(s == dict(local=1, remote=0, miss=2, stored=2),
            "after editing common.h: a and b re-analyzed, c hit", str(s))
    hits = re.findall(r"(\w+)\.cpp: cache hit", err)
    F.check(hits == ["c"], "the hit is c.cpp (which does not include common.h)", err)
    F.check(after == no_cache_report(distlint, p1), "report after the edit is correct")

    # A TU body edit: only that TU.
    with open(os.path.join(p1, "src", "c.cpp"), "a") as fh:
        fh.write("void extra_c() { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);\n"
                 "  if (r) MPI_Barrier(MPI_COMM_WORLD); }\n")
    after, s, _ = run(distlint, p1, "--cache-dir", cache)
    F.check(s == dict(local=2, remote=0, miss=1, stored=1), "after editing c.cpp: 1 miss",
            str(s))
    F.check(after == no_cache_report(distlint, p1) and after.count('"rule"') == 5,
            "the new finding in c.cpp is reported")

    # --no-cache: nothing read, nothing written.
    before = sorted(os.listdir(os.path.join(cache, "r")))
    with open(os.path.join(p1, "src", "a.cpp"), "a") as fh:
        fh.write("// edited\n")
    _, s, _ = run(distlint, p1, "--cache-dir", cache, "--no-cache")
    F.check(s is None and sorted(os.listdir(os.path.join(cache, "r"))) == before,
            "--no-cache neither reports cache use nor writes entries")

    # A second checkout at another path: relocatable entries.
    p2 = os.path.join(tmp, "elsewhere", "checkout2")
    shutil.copytree(p1, p2)
    rewritten = open(os.path.join(p2, "compile_commands.json")).read().replace(p1, p2)
    open(os.path.join(p2, "compile_commands.json"), "w").write(rewritten)
    run(distlint, p1, "--cache-dir", cache)  # store a.cpp's edit
    moved, s, _ = run(distlint, p2, "--cache-dir", cache)
    F.check(s == dict(local=3, remote=0, miss=0, stored=0),
            "a copy at another path: 3 of 3 hits", str(s))
    F.check(moved == no_cache_report(distlint, p2) and p2 in moved and p1 not in moved,
            "its replayed report names the copy's files")

    # Size limit with LRU eviction.
    big = dir_size(cache)
    run(distlint, p1, "--cache-dir", cache, "--cache-size", "1K")
    F.check(dir_size(cache) <= 1024 < big,
            "--cache-size 1K: the directory (%d bytes) shrinks to the limit" % big,
            str(dir_size(cache)))
    _, s, _ = run(distlint, p1, "--cache-dir", cache, "--cache-size", "1K")
    F.check(s is not None and s["miss"] > 0, "evicted entries are misses", str(s))

    # Concurrent runs on one fresh directory.
    shared = os.path.join(tmp, "concurrent-cache")
    cmd = [distlint, "-p", p1, "--all", "--format=json", "-j", "1", "--cache-dir", shared]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, cwd=p1) for _ in range(4)]
    outs = [p.communicate()[0] for p in procs]
    truth = no_cache_report(distlint, p1)
    F.check(all(o == truth for o in outs), "4 concurrent runs: all reports correct")
    leftovers = [f for _, _, fs in os.walk(shared) for f in fs if ".tmp" in f]
    F.check(not leftovers, "no temporary files left behind", str(leftovers))
    warm, s, _ = run(distlint, p1, "--cache-dir", shared)
    F.check(s is not None and s["local"] == 3 and warm == truth,
            "after them a run gets 3 hits", str(s))

    crash_never_cached(distlint, tmp, F)


def crash_never_cached(distlint, tmp, F):
    """A TU whose analysis crashes (a parser stack overflow) is one errors
    entry, cached or not; the good TU beside it is stored and replayed."""
    d = os.path.join(tmp, "crash")
    os.makedirs(d)
    good = os.path.join(d, "good.cpp")
    with open(good, "w") as fh:
        fh.write(TU.format(name="good", extra=""))
    crash = os.path.join(d, "crash.cpp")
    n = 5000  # with -fbracket-depth=6000: the parser's recursion overflows
    with open(crash, "w") as fh:
        fh.write("int f() { return " + "(" * n + "1" + ")" * n + "; }\n")
    cache = os.path.join(tmp, "crash-cache")
    cmd = [distlint, "--format=json", "--verbose", "-j", "2", "--cache-dir", cache,
           good, crash, "--", "-std=c++17", "-I" + STANDIN, "-fbracket-depth=6000"]
    for attempt in ("first", "second"):
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=d, timeout=600)
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = {"findings": [], "errors": []}
        crashed = [e for e in doc["errors"] if e["file"].endswith("crash.cpp") and
                   "analysis crashed" in e["message"]]
        F.check(p.returncode == 2 and len(crashed) == 1 and len(doc["errors"]) == 1,
                "%s run: the crashing TU is one errors entry, exit 2" % attempt,
                p.stdout[-600:] + p.stderr[-600:])
        F.check(any(f["file"].endswith("good.cpp") for f in doc["findings"]),
                "%s run: the good TU's finding is kept" % attempt)
        stats = STATS.search(p.stderr)
        if attempt == "second":
            F.check(stats is not None and stats.groups()[:3] == ("1", "0", "1"),
                    "second run: the good TU is a hit, the crash a miss (never stored)",
                    p.stderr[-600:])


def two_checkouts(distlint, tmp, F, url, count_entries):
    p1 = os.path.join(tmp, "ci-machine-1", "repo")
    p2 = os.path.join(tmp, "ci-machine-2", "work", "repo")
    make_project(p1)
    make_project(p2)
    first, s, err = run(distlint, p1, "--cache-dir", os.path.join(tmp, "c1"),
                        "--remote-storage", url)
    F.check(s is not None and s["miss"] == 3 and "6 uploaded" in err,
            "checkout 1: 3 misses, 3 manifests + 3 results uploaded", err[-400:])
    entries = count_entries()
    F.check(entries >= 6, "the server holds manifests and results (%d entries)" % entries)
    second, s, _ = run(distlint, p2, "--cache-dir", os.path.join(tmp, "c2"),
                       "--remote-storage", url)
    F.check(s == dict(local=0, remote=3, miss=0, stored=0),
            "clean checkout 2 at another path: 100% remote hits (3 of 3)", str(s))
    F.check(second == no_cache_report(distlint, p2),
            "its report equals an uncached analysis of checkout 2")
    # Read-only clients never write.
    with open(os.path.join(p2, "src", "b.cpp"), "a") as fh:
        fh.write("// changed on the untrusted client\n")
    _, s, err = run(distlint, p2, "--cache-dir", os.path.join(tmp, "c3"),
                    "--remote-storage", url + "|read-only")
    F.check(s is not None and s["remote"] == 2 and s["miss"] == 1,
            "read-only client: 2 remote hits, 1 miss", str(s))
    F.check(count_entries() == entries, "read-only client uploaded nothing")
    _, s, _ = run(distlint, p2, "--cache-dir", os.path.join(tmp, "c4"),
                  "--remote-storage", "redis://127.0.0.1:%d" % free_port())
    F.check(s is not None and s["miss"] == 3,
            "an unreachable server is a miss, not an error", str(s))


def case_redis(distlint, tmp, F):
    server = shutil.which("redis-server")
    if not server:
        print("SKIPPED: redis-server not installed (scripts/setup.sh installs it)")
        return SKIP
    port = free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", tmp],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)

        def count():
            import socket
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"*1\r\n$6\r\nDBSIZE\r\n")
                return int(s.recv(100).decode().strip().lstrip(":"))
        two_checkouts(distlint, tmp, F, "redis://127.0.0.1:%d" % port, count)
    finally:
        proc.terminate()
        proc.wait()


NGINX_CONF = """daemon off;
user {user};
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/nginx-body;
  proxy_temp_path {tmp}/nginx-proxy;
  fastcgi_temp_path {tmp}/nginx-fastcgi;
  uwsgi_temp_path {tmp}/nginx-uwsgi;
  scgi_temp_path {tmp}/nginx-scgi;
  client_max_body_size 64m;
  server {{
    listen 127.0.0.1:{port};
    location /distlint/ {{
      root {tmp}/dav;
      dav_methods PUT;
      create_full_put_path on;
    }}
  }}
}}
"""


def case_http(distlint, tmp, F):
    server = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                       else None)
    if not server:
        print("SKIPPED: nginx not installed (scripts/setup.sh installs nginx-light)")
        return SKIP
    port = free_port()
    os.makedirs(os.path.join(tmp, "dav", "distlint"))
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as fh:
        # Workers run as the current user (root's default would be nobody,
        # who cannot write into our temporary directory).
        import grp
        import pwd
        user = "%s %s" % (pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name)
        fh.write(NGINX_CONF.format(tmp=tmp, port=port, user=user))
    proc = subprocess.Popen([server, "-c", conf, "-p", tmp], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_port(port, proc)
        store = os.path.join(tmp, "dav", "distlint", "ci")

        def count():
            return len(os.listdir(store)) if os.path.isdir(store) else 0
        two_checkouts(distlint, tmp, F, "http://127.0.0.1:%d/distlint/ci" % port, count)
    finally:
        proc.terminate()
        proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    ap.add_argument("--case", required=True, choices=["local", "redis", "http"])
    a = ap.parse_args()
    F = Failures()
    tmp = tempfile.mkdtemp(prefix="distlint-cache-test-")
    try:
        rc = {"local": case_local, "redis": case_redis, "http": case_http}[a.case](
            os.path.abspath(a.distlint), tmp, F)
        if rc == SKIP:
            return SKIP
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return F.exit_code()


if __name__ == "__main__":
    sys.exit(main())
