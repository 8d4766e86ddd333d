#!/usr/bin/env python3
"""CLI tests: run the real `distlint` binary on testdata/driver/ inputs.

Each case is one ctest (driver.cli.<case>); `--list` prints the case names.
Cases marked NEEDS_RULE assert findings of distlint-rank-divergent-collective
(an `if (rank == 0) MPI_Barrier(...)` must be reported); the others only
depend on the driver.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CASES = {}
RULE = "distlint-rank-divergent-collective"
ALL_RULES = ["distlint-rank-divergent-collective", "distlint-missing-set-epoch",
             "distlint-stray-device-sync", "distlint-missing-timeout"]


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


class Env:
    def __init__(self, distlint, repo, tmp):
        self.distlint = distlint
        self.repo = repo
        self.tmp = tmp
        self.data = os.path.join(repo, "testdata", "driver")
        self.flags = ["-std=c++17", "-I" + os.path.join(repo, "testdata", "include")]

    def path(self, name):
        return os.path.join(self.data, name)

    def run(self, args, cwd=None, binary=None):
        p = subprocess.run([binary or self.distlint] + args, cwd=cwd or self.tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=600)
        return p.returncode, p.stdout, p.stderr

    def lint(self, files, extra=(), cwd=None):
        """distlint --no-cache [extra] files -- default flags (no result cache:
        every case analyzes, e.g. -j 2 is not a replay of -j 1)"""
        return self.run(["--no-cache"] + list(extra) + list(files) + ["--"] + self.flags,
                        cwd=cwd)

    def json(self, files, extra=(), cwd=None):
        rc, out, err = self.lint(files, ["--format=json"] + list(extra), cwd=cwd)
        try:
            return rc, json.loads(out), err
        except ValueError:
            raise Failure(f"output is not JSON (rc={rc}):\n{out}\n{err}")

    def copy(self, name, dest_dir=None, dest_name=None):
        dest_dir = dest_dir or self.tmp
        os.makedirs(dest_dir, exist_ok=True)
        dest = os.path.join(dest_dir, dest_name or name)
        shutil.copy(self.path(name), dest)
        return dest

    def write_db(self, directory, entries, compiler="/usr/bin/g++"):
        os.makedirs(directory, exist_ok=True)
        db = [{"directory": directory, "file": f,
               "arguments": [compiler] + args + ["-c", f, "-o", f + ".o"]}
              for f, args in entries]
        with open(os.path.join(directory, "compile_commands.json"), "w") as fh:
            json.dump(db, fh, indent=1)


def one_error_line(rc, err, what):
    lines = err.strip().splitlines()
    check(rc == 2, f"{what}: expected exit 2, got {rc}; stderr:\n{err}")
    check(len(lines) == 1, f"{what}: expected one stderr line, got:\n{err}")
    check(lines[0].startswith("distlint: error: "), f"{what}: unexpected: {lines[0]}")
    return lines[0]


def findings_at(doc, rule=RULE):
    return sorted((os.path.basename(f["file"]), f["line"]) for f in doc["findings"]
                  if f["rule"] == rule)


# --- Rules and docs -----------------------------------------------------------

@case
def list_rules(e):
    rc, out, err = e.run(["--list-rules"])
    check(rc == 0, f"exit {rc}: {err}")
    listed = [l.strip() for l in out.splitlines()[1:] if l.strip()]
    check(listed == ALL_RULES, f"--list-rules printed {listed}")
    rc, out, _ = e.run(["--list-rules", "--rules=-*,distlint-missing-*"])
    listed = [l.strip() for l in out.splitlines()[1:] if l.strip()]
    check(listed == ["distlint-missing-set-epoch", "distlint-missing-timeout"], listed)


@case
def explain_prints_doc_pages(e):
    for rule in ALL_RULES:
        page = os.path.join(e.repo, "docs", "rules", rule + ".md")
        check(os.path.exists(page), f"missing doc page {page}")
        rc, out, err = e.run(["--explain", rule])
        check(rc == 0, f"--explain {rule}: exit {rc} {err}")
        with open(page) as fh:
            check(out == fh.read(), f"--explain {rule} differs from {page} "
                  "(rebuild after editing docs?)")
    rc, out, err = e.run(["--explain", "distlint-nope"])
    one_error_line(rc, err, "--explain unknown rule")


# --- Arguments ----------------------------------------------------------------

@case
def bad_arguments_exit_2_with_one_line(e):
    for args in (["--format=xml", e.path("clean.cpp"), "--"] + e.flags,
                 ["--no-such-option", e.path("clean.cpp")],
                 ["--fail-on=loud", e.path("clean.cpp"), "--"] + e.flags,
                 ["-j", "many", e.path("clean.cpp")],
                 ["--rules=-*", e.path("clean.cpp"), "--"] + e.flags,
                 ["--line-filter=[oops", e.path("clean.cpp"), "--"] + e.flags,
                 ["--baseline", os.path.join(e.tmp, "missing.json"), e.path("clean.cpp"), "--"] + e.flags,
                 ["--resource-dir=/nonexistent", e.path("clean.cpp"), "--"] + e.flags,
                 ["--config-file", os.path.join(e.tmp, "missing.yaml"), e.path("clean.cpp"), "--"] + e.flags,
                 []):
        rc, out, err = e.run(args)
        one_error_line(rc, err, " ".join(args[:2]))
        check(out == "", f"{args[:2]}: unexpected stdout {out!r}")


# --- Exit codes and errors ----------------------------------------------------

@case
def clean_file_exits_0(e):
    rc, out, err = e.lint([e.path("clean.cpp")])
    check(rc == 0 and out == "", f"exit {rc}, stdout {out!r}, stderr {err!r}")


@case
def finding_exits_1_text_format(e):  # NEEDS_RULE
    rc, out, err = e.lint([e.path("divergent.cpp")])
    check(rc == 1, f"expected exit 1, got {rc}:\n{out}{err}")
    lines = out.splitlines()
    warn = re.compile(r"^(/[^:]+):(\d+):(\d+): warning: .+ \[([a-z-]+)\]$")
    note = re.compile(r"^(/[^:]+):(\d+):(\d+): note: .+$")
    check(lines and warn.match(lines[0]), f"first line is not a warning: {out}")
    m = warn.match(lines[0])
    check(m.group(1) == e.path("divergent.cpp") and m.group(2) == "9" and m.group(4) == RULE,
          f"wrong finding: {lines[0]}")
    for l in lines[1:]:
        check(warn.match(l) or note.match(l), f"not clang-style: {l}")
    check("\x1b[" not in out, "colors on a non-terminal")
    rc, _, _ = e.lint([e.path("divergent.cpp")], ["--fail-on=error"])
    check(rc == 0, f"--fail-on=error: exit {rc}")
    rc, _, _ = e.lint([e.path("divergent.cpp")], ["--fail-on=never"])
    check(rc == 0, f"--fail-on=never: exit {rc}")
    rc, _, _ = e.lint([e.path("divergent.cpp")], ["--fail-on=note"])
    check(rc == 1, f"--fail-on=note: exit {rc}")


@case
def unparsable_file_is_listed_and_others_analyzed(e):
    files = [e.path("broken.cpp"), e.path("clean.cpp"), e.path("syntax_error.cpp"),
             e.path("unmatched_begin.cpp")]
    rc, doc, err = e.json(files)
    check(rc == 2, f"expected exit 2, got {rc}")
    errs = sorted(os.path.basename(x["file"]) for x in doc["errors"])
    check(errs == ["broken.cpp", "syntax_error.cpp"], f"errors: {doc['errors']}")
    msg = [x["message"] for x in doc["errors"] if x["file"].endswith("broken.cpp")][0]
    check("this_header_does_not_exist.h" in msg, msg)
    # unmatched_begin.cpp was still analyzed: its NOLINT error is reported.
    check(("unmatched_begin.cpp", 4) in findings_at(doc, "distlint-nolint"),
          f"findings: {doc['findings']}")
    check("broken.cpp" in err, "file errors are echoed on stderr for json output")


@case
def unparsable_file_keeps_other_findings(e):  # NEEDS_RULE
    rc, doc, _ = e.json([e.path("broken.cpp"), e.path("divergent.cpp")])
    check(rc == 2, f"exit {rc}")
    check(findings_at(doc) == [("divergent.cpp", 9)], f"findings: {doc['findings']}")


# --- Parallelism --------------------------------------------------------------

def parallel_inputs(e, with_rule_testdata=True):
    """testdata/driver plus some rule testdata: findings, notes and errors."""
    files = sorted(os.path.join(e.data, f) for f in os.listdir(e.data) if f.endswith(".cpp"))
    if not with_rule_testdata:
        return files
    more = []
    for root, _, names in os.walk(os.path.join(e.repo, "testdata", "rank-divergent")):
        more += [os.path.join(root, n) for n in names if n.endswith(".cpp")]
    return files + sorted(more)[:6]


@case
def jobs_2_output_identical_to_jobs_1(e):
    # Every input in JSON; the other formats render the same merged results,
    # so testdata/driver alone (findings, notes, errors) checks their order.
    for fmt in ("text", "json", "sarif"):
        files = parallel_inputs(e, with_rule_testdata=fmt == "json")
        r1 = e.lint(files, ["-j", "1", "--format=" + fmt])
        r2 = e.lint(files, ["-j2", "--format=" + fmt])
        check(r1[1] == r2[1], f"{fmt}: -j 2 output differs from -j 1")
        check(r1[0] == r2[0], f"{fmt}: exit codes differ {r1[0]} {r2[0]}")
        check(r1[1].strip() != "", f"{fmt}: empty output")  # errors at least


@case
def jobs_2_identical_with_findings(e):  # NEEDS_RULE
    files = [e.path("divergent.cpp"), e.path("second_divergent.cpp"), e.path("nolint.cpp")]
    r1 = e.lint(files, ["-j", "1", "--format=json"])
    r2 = e.lint(files, ["-j", "2", "--format=json"])
    check(r1[1] == r2[1], "-j 2 output differs from -j 1")
    doc = json.loads(r1[1])
    check(len(doc["findings"]) >= 2, f"expected findings: {doc['findings']}")


# --- Compilation databases ----------------------------------------------------

@case
def broken_compile_db_exits_2_with_one_line(e):
    bad = os.path.join(e.tmp, "bad")
    os.makedirs(bad)
    with open(os.path.join(bad, "compile_commands.json"), "w") as fh:
        fh.write('[{"directory": "/tmp", "file": "a.cpp", "arguments": [')
    src = e.copy("clean.cpp", bad)
    rc, out, err = e.run(["-p", bad, src])
    line = one_error_line(rc, err, "-p malformed db")
    check("compile_commands.json" in line, line)
    check(out == "", f"stdout: {out!r}")
    rc, out, err = e.run([src])  # found next to the source, no -p
    line = one_error_line(rc, err, "discovered malformed db")
    check("compile_commands.json" in line, line)
    # An entry without "file" is malformed too.
    with open(os.path.join(bad, "compile_commands.json"), "w") as fh:
        json.dump([{"directory": bad, "arguments": ["g++", "-c", "x.cpp"]}], fh)
    one_error_line(*e.run(["-p", bad, src])[::2], "db entry without file")
    # Unreadable: the database path is a directory.
    unreadable = os.path.join(e.tmp, "unreadable")
    os.makedirs(os.path.join(unreadable, "compile_commands.json"))
    rc, out, err = e.run(["-p", unreadable, src])
    line = one_error_line(rc, err, "unreadable db")
    check("compile_commands.json" in line, line)
    # No database at all under -p.
    rc, out, err = e.run(["-p", os.path.join(e.tmp, "nowhere"), src])
    one_error_line(rc, err, "missing -p dir")


def needs_define_source(e, dest):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest, "w") as fh:
        fh.write("#ifndef FROM_THE_DATABASE\n#error compiled without the database flags\n"
                 "#endif\n#include <mpi.h>\nint main() { return 0; }\n")
    return dest


@case
def compile_db_discovery(e):
    flags = e.flags + ["-DFROM_THE_DATABASE"]
    # 1. -p names a subdirectory of the build dir: parents are searched.
    proj = os.path.join(e.tmp, "proj")
    src = needs_define_source(e, os.path.join(proj, "src", "a.cpp"))
    e.write_db(os.path.join(proj, "build"), [(src, flags)])
    os.makedirs(os.path.join(proj, "build", "sub"))
    rc, out, err = e.run(["--format=json", "-p", os.path.join(proj, "build", "sub"), src])
    check(rc == 0 and json.loads(out)["errors"] == [], f"-p parent search: {rc} {out} {err}")
    rc, out, err = e.run(["--format=json", "-p",
                          os.path.join(proj, "build", "compile_commands.json"), src])
    check(rc == 0 and json.loads(out)["errors"] == [], f"-p <database file>: {rc} {out} {err}")
    # 2. No -p: the build*/ directory of the cwd.
    rc, out, err = e.run(["--format=json", src], cwd=proj)
    check(rc == 0 and json.loads(out)["errors"] == [], f"build*/ lookup: {rc} {out} {err}")
    # 3. No -p: a database in a parent of the source wins over build*/.
    e.write_db(os.path.join(proj, "src"), [(src, flags)])
    with open(os.path.join(proj, "build", "compile_commands.json"), "w") as fh:
        fh.write("[")  # would be an error if it were used
    rc, out, err = e.run(["--format=json", src], cwd=proj)
    check(rc == 0 and json.loads(out)["errors"] == [], f"upward lookup: {rc} {out} {err}")
    # 4. Nothing anywhere: this file's error, exit 2.
    lonely = needs_define_source(e, os.path.join(e.tmp, "lonely", "b.cpp"))
    rc, out, err = e.run(["--format=json", lonely], cwd=os.path.join(e.tmp, "lonely"))
    check(rc == 2 and "no compilation database" in out, f"{rc} {out} {err}")


@case
def all_analyzes_every_database_file(e):
    d = os.path.join(e.tmp, "b")
    clean = e.copy("clean.cpp", os.path.join(e.tmp, "src"))
    bad = e.copy("syntax_error.cpp", os.path.join(e.tmp, "src"))
    e.write_db(d, [(clean, e.flags), (bad, e.flags)])
    rc, out, err = e.run(["--all", "-p", d, "--format=json"])
    doc = json.loads(out)
    check(rc == 2 and [os.path.basename(x["file"]) for x in doc["errors"]] == ["syntax_error.cpp"],
          f"{rc} {doc}")
    rc, out, err = e.run(["--all", "--format=json"], cwd=e.tmp)  # build*/ not present: b/
    one_error_line(rc, err, "--all without a database")


@case
def gcc_only_flags_do_not_break_analysis(e):
    d = os.path.join(e.tmp, "gccbuild")
    src = e.copy("clean.cpp", os.path.join(e.tmp, "src"))
    gcc = ["-O2", "-fconcepts-diagnostics-depth=2", "-Wno-maybe-uninitialized",
           "-fno-semantic-interposition", "-fanalyzer", "-Werror", "-Wall",
           "-fstack-clash-protection", "-fcf-protection", "--param=ssp-buffer-size=4",
           "-fno-plt", "-flto=auto", "-fno-fat-lto-objects", "-Wformat-overflow=2",
           "-fdiagnostics-color=always", "-ffile-prefix-map=/a=/b", "-fmax-errors=5",
           "-Wno-stringop-overflow", "-Wduplicated-cond", "-flifetime-dse=1"]
    e.write_db(d, [(src, e.flags + gcc)], compiler="/usr/bin/g++-12")
    rc, out, err = e.run(["-p", d, "--format=json", src])
    check(rc == 0, f"exit {rc}: {out} {err}")
    check(json.loads(out)["errors"] == [], out)


@case
def gcc_only_flags_keep_findings(e):  # NEEDS_RULE
    d = os.path.join(e.tmp, "gccbuild")
    src = e.copy("divergent.cpp", os.path.join(e.tmp, "src"))
    e.write_db(d, [(src, e.flags + ["-fconcepts-diagnostics-depth=2", "-Wno-maybe-uninitialized"])])
    rc, out, err = e.run(["-p", d, "--format=json", src])
    check(rc == 1 and findings_at(json.loads(out)) == [("divergent.cpp", 9)], f"{rc} {out} {err}")


@case
def extra_args(e):
    src = needs_define_source(e, os.path.join(e.tmp, "x.cpp"))
    rc, out, err = e.lint([src], ["--extra-arg=-DFROM_THE_DATABASE"])
    check(rc == 0, f"--extra-arg: {rc} {out} {err}")
    rc, out, err = e.lint([src], ["--extra-arg-before=-DFROM_THE_DATABASE"])
    check(rc == 0, f"--extra-arg-before: {rc} {out} {err}")
    rc, out, err = e.lint([src])
    check(rc == 2 and "compiled without the database flags" in err, f"{rc} {out} {err}")


@case
def resource_dir_found_relative_to_binary(e):
    src = os.path.join(e.tmp, "builtin.cpp")
    with open(src, "w") as fh:
        fh.write("#include <stddef.h>\n#include <stdarg.h>\n#include <cstdint>\n"
                 "size_t n = sizeof(max_align_t); int main() { return 0; }\n")
    prefix = os.path.join(e.tmp, "prefix")
    os.makedirs(os.path.join(prefix, "bin"))
    binary = os.path.join(prefix, "bin", "distlint")
    shutil.copy(e.distlint, binary)
    rc, default_dir, _ = e.run(["--print-resource-dir"], binary=binary)
    default_dir = default_dir.strip()
    check(rc == 0 and os.path.exists(os.path.join(default_dir, "include", "stddef.h")),
          f"copied binary has no resource dir: {default_dir!r}")
    rc, out, err = e.run([src, "--"], binary=binary)
    check(rc == 0, f"copied binary cannot parse builtin headers: {rc} {out} {err}")
    major = os.path.basename(default_dir)
    os.makedirs(os.path.join(prefix, "lib", "clang"))
    os.symlink(default_dir, os.path.join(prefix, "lib", "clang", major))
    rc, out, _ = e.run(["--print-resource-dir"], binary=binary)
    check(out.strip() == os.path.join(prefix, "lib", "clang", major),
          f"../lib/clang/{major} next to the binary not preferred: {out}")
    rc, out, _ = e.run(["--print-resource-dir", "--resource-dir", default_dir], binary=binary)
    check(out.strip() == default_dir, f"--resource-dir not honoured: {out}")
    rc, out, err = e.run([src, "--resource-dir", default_dir, "--"], binary=binary)
    check(rc == 0, f"--resource-dir run: {rc} {out} {err}")


# --- Suppressions -------------------------------------------------------------

@case
def nolint_forms(e):  # NEEDS_RULE
    rc, doc, err = e.json([e.path("nolint.cpp")])
    with open(e.path("nolint.cpp")) as fh:
        expected = [("nolint.cpp", i + 1) for i, l in enumerate(fh)
                    if "REPORTED" in l]
    check(findings_at(doc) == expected,
          f"expected findings at {expected}, got {findings_at(doc)}")
    check(rc == 1, f"exit {rc}")


@case
def nolint_unmatched_begin_is_an_error(e):
    rc, doc, _ = e.json([e.path("unmatched_begin.cpp")])
    errs = [f for f in doc["findings"] if f["rule"] == "distlint-nolint"]
    check(len(errs) == 1 and errs[0]["line"] == 4 and errs[0]["severity"] == "error"
          and "unmatched 'NOLINTBEGIN'" in errs[0]["message"], f"{doc['findings']}")
    check(rc == 1, f"exit {rc}")


@case
def nolint_unmatched_begin_silences_nothing(e):  # NEEDS_RULE
    rc, doc, _ = e.json([e.path("unmatched_begin.cpp")])
    check(findings_at(doc) == [("unmatched_begin.cpp", 9)], f"{doc['findings']}")


# --- Baseline, filters --------------------------------------------------------

NEW_BUG = """
void new_bug() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r != 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
"""


def line_of_last_barrier(path):
    with open(path) as fh:
        return [i + 1 for i, l in enumerate(fh) if "MPI_Barrier" in l][-1]



@case
def baseline_survives_lines_inserted_above(e):  # NEEDS_RULE
    a = e.copy("divergent.cpp")
    b = e.copy("second_divergent.cpp")
    base = os.path.join(e.tmp, "baseline.json")
    rc, out, err = e.lint([a, b], ["--write-baseline", base])
    check(rc == 0, f"--write-baseline exit {rc}: {err}")
    with open(base) as fh:
        recorded = json.load(fh)["findings"]
    check(len(recorded) == 2, f"baseline should hold 2 findings: {recorded}")
    rc, doc, _ = e.json([a, b], ["--baseline", base])
    check(rc == 0 and doc["findings"] == [], f"unchanged code: {rc} {doc['findings']}")
    # Insert unrelated lines above both findings, and add one new bug.
    with open(a) as fh:
        text = fh.read()
    text = "// header comment\n#include <cstddef>\n\nstatic int unrelated = 3;\n" + text
    text += NEW_BUG
    with open(a, "w") as fh:
        fh.write(text)
    rc, doc, _ = e.json([a, b], ["--baseline", base])
    new_line = line_of_last_barrier(a)
    check(findings_at(doc) == [("divergent.cpp", new_line)],
          f"only the new finding (line {new_line}) expected: {findings_at(doc)}")
    check(rc == 1, f"exit {rc}")


@case
def line_filter(e):  # NEEDS_RULE
    src = e.path("divergent.cpp")
    rc, doc, _ = e.json([src], ['--line-filter=[{"name":"divergent.cpp","lines":[[1,8]]}]'])
    check(rc == 0 and doc["findings"] == [], f"{rc} {doc['findings']}")
    rc, doc, _ = e.json([src], ['--line-filter=[{"name":"divergent.cpp","lines":[[9,9]]}]'])
    check(rc == 1 and findings_at(doc) == [("divergent.cpp", 9)], f"{rc} {doc['findings']}")


def git(e, repo, *args):
    subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t",
                    "-c", "commit.gpgsign=false"] + list(args),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@case
def diff_keeps_changed_lines_only(e):  # NEEDS_RULE
    repo = os.path.join(e.tmp, "repo")
    a = e.copy("divergent.cpp", repo)
    b = e.copy("second_divergent.cpp", repo)
    git(e, repo, "init", "-q")
    git(e, repo, "add", ".")
    git(e, repo, "commit", "-q", "-m", "base")
    with open(b, "a") as fh:
        fh.write(NEW_BUG)
    new_line = line_of_last_barrier(b)
    rc, doc, err = e.json([a, b], ["--diff", "HEAD"], cwd=repo)
    check(findings_at(doc) == [("second_divergent.cpp", new_line)],
          f"only the new finding expected: {findings_at(doc)} {err}")
    rc, doc, _ = e.json([a, b], cwd=repo)
    check(len(findings_at(doc)) == 3, f"without --diff: {findings_at(doc)}")


@case
def diff_with_bad_revision_exits_2(e):
    repo = os.path.join(e.tmp, "repo")
    a = e.copy("clean.cpp", repo)
    git(e, repo, "init", "-q")
    rc, out, err = e.lint([a], ["--diff", "no-such-rev"], cwd=repo)
    line = one_error_line(rc, err, "--diff bad rev")
    check("git" in line, line)


# --- Config -------------------------------------------------------------------

@case
def config_file_selects_rules_and_severity(e):  # NEEDS_RULE
    d = os.path.join(e.tmp, "proj")
    src = e.copy("divergent.cpp", d)
    rc, doc, _ = e.json([src])
    check(findings_at(doc) == [("divergent.cpp", 9)], f"baseline run: {doc['findings']}")
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("Severities:\n  distlint-rank-divergent-collective: error\n")
    rc, doc, _ = e.json([src], ["--fail-on=error"])
    check(rc == 1 and [f["severity"] for f in doc["findings"]] == ["error"], f"{rc} {doc}")
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("Rules: '-distlint-rank-divergent-collective'\n")
    rc, doc, _ = e.json([src])
    check(rc == 0 and doc["findings"] == [], f"disabled by config: {doc['findings']}")
    rc, doc, _ = e.json([src], ["--rules=distlint-rank-*"])
    check(rc == 1, "--rules applies after the config file")
    other = os.path.join(e.tmp, "other.yaml")
    with open(other, "w") as fh:
        fh.write("Rules: 'distlint-*'\n")
    rc, doc, _ = e.json([src], ["--config-file", other])
    check(rc == 1, "--config-file replaces the per-directory file")


@case
def malformed_config_exits_2(e):
    d = os.path.join(e.tmp, "proj")
    src = e.copy("clean.cpp", d)
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("Rules: '-*'\nColour: red\n")
    rc, out, err = e.lint([src], cwd=e.tmp)
    line = one_error_line(rc, err, "malformed config")
    check(".distlint.yaml:2" in line and "Colour" in line, line)


# --- Output formats -----------------------------------------------------------

def run_on_tty(e, args):
    """Runs distlint with stdout and stderr on a pseudo-terminal."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen([e.distlint] + args, stdout=slave, stderr=slave, cwd=e.tmp)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=600)
    os.close(master)
    return p.returncode, b"".join(chunks).decode(errors="replace")


@case
def terminal_gets_progress_and_color(e):
    files = [e.path("clean.cpp"), e.path("unmatched_begin.cpp")]
    rc, out = run_on_tty(e, files + ["--"] + e.flags)
    check("[1/2] " in out and "[2/2] " in out, f"no progress on a terminal:\n{out}")
    check("\x1b[" in out, f"no color on a terminal:\n{out!r}")
    rc, out = run_on_tty(e, ["--quiet"] + files + ["--"] + e.flags)
    check("[1/2]" not in out, f"--quiet still shows progress:\n{out}")
    rc, out, err = e.lint(files)
    check("[1/2]" not in err and "\x1b[" not in out + err, "progress/color without a terminal")


@case
def json_and_output_file(e):
    out_file = os.path.join(e.tmp, "r.json")
    rc, out, err = e.lint([e.path("unmatched_begin.cpp")],
                          ["--format=json", "--output", out_file])
    check(out == "", f"stdout should be empty with --output: {out!r}")
    with open(out_file) as fh:
        doc = json.load(fh)
    check(doc["tool"]["name"] == "distlint" and doc["tool"]["version"], doc["tool"])
    check(isinstance(doc["errors"], list), doc)
    for f in doc["findings"]:
        for key in ("rule", "severity", "file", "line", "column", "message", "notes",
                    "fingerprint"):
            check(key in f, f"finding lacks {key}: {f}")
        check(os.path.isabs(f["file"]), f["file"])
    check(len(doc["findings"]) >= 1, "expected the NOLINT error at least")


def sarif_multitool(e):
    script = os.path.join(e.repo, "scripts", "install-sarif-multitool.sh")
    p = subprocess.run(["bash", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode == 3:
        print("SKIP: SARIF multitool not installable (npm registry unreachable?):\n" + p.stderr)
        sys.exit(77)
    check(p.returncode == 0, f"install-sarif-multitool.sh failed:\n{p.stderr}")
    return p.stdout.strip().splitlines()[-1]


def validate_sarif(e, files):
    tool = sarif_multitool(e)
    sarif = os.path.join(e.tmp, "out.sarif")
    rc, _, err = e.lint(files, ["--format=sarif", "--output", sarif], cwd=e.repo)
    check(rc in (0, 1, 2), f"distlint exit {rc}: {err}")
    log = os.path.join(e.tmp, "validation.sarif")
    p = subprocess.run([tool, "validate", "--rule-kind", "Gh;Sarif", "--output", log,
                        sarif], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    check(os.path.exists(log), f"multitool wrote no log (exit {p.returncode}):\n{p.stdout}")
    with open(log) as fh:
        results = json.load(fh)["runs"][0].get("results", [])
    errors = [r for r in results if r.get("level", "warning") == "error"]
    check(not errors, "SARIF validation errors:\n" + "\n".join(
        f"{r.get('ruleId')}: {r.get('message', {}).get('text', r.get('message'))}"
        for r in errors) + "\n" + p.stdout)
    check(p.returncode == 0, f"multitool exit {p.returncode}:\n{p.stdout}")
    with open(sarif) as fh:
        return json.load(fh)


@case
def sarif_validates(e):
    doc = validate_sarif(e, [e.path("unmatched_begin.cpp"), e.path("syntax_error.cpp")])
    results = doc["runs"][0]["results"]
    check(results, "expected at least the NOLINT error result")
    loc = results[0]["locations"][0]["physicalLocation"]
    check(loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%" and
          loc["artifactLocation"]["uri"] == "testdata/driver/unmatched_begin.cpp", loc)


@case
def sarif_validates_with_notes(e):  # NEEDS_RULE
    doc = validate_sarif(e, [e.path("divergent.cpp"), e.path("second_divergent.cpp")])
    results = [r for r in doc["runs"][0]["results"] if r["ruleId"] == RULE]
    check(len(results) == 2, f"results: {results}")
    check(all(r.get("relatedLocations") for r in results), "notes missing as relatedLocations")
    check(all(r["partialFingerprints"] for r in results), "partialFingerprints missing")


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_tidy  # noqa: E402  clang-tidy's options (README table), issue 13
cli_tidy.register(sys.modules[__name__])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--distlint")
    ap.add_argument("--repo")
    ap.add_argument("--case")
    a = ap.parse_args()
    if a.list:
        print("\n".join(CASES))
        return 0
    with tempfile.TemporaryDirectory(prefix="distlint-cli-") as tmp:
        e = Env(os.path.abspath(a.distlint), os.path.abspath(a.repo), os.path.realpath(tmp))
        try:
            CASES[a.case](e)
        except Failure as f:
            print(f"FAIL {a.case}: {f}")
            return 1
    print(f"PASS {a.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
