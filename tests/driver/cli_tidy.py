"""clang-tidy's command line on the real binary (issue 13), one case per row
of the README's clang-tidy table. Registered into cli_test.py's CASES by
register(); each case gets cli_test's Env and module (check, Failure...).
"""
import json
import os
import re
import shutil
import subprocess

T = None  # the cli_test module, set by register()
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def register(cli_test):
    global T
    T = cli_test
    for name, fn in CASES.items():
        cli_test.CASES[name] = fn


HEADER = """#pragma once
#include <mpi.h>
inline void only_rank0_barrier() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Barrier(MPI_COMM_WORLD); // line 7: the header's finding
}
"""
MAIN = """#include "sync_helpers.h"
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  only_rank0_barrier();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1)
    MPI_Barrier(MPI_COMM_WORLD); // line 8: the main file's finding
  MPI_Finalize();
}
"""


def header_project(e):
    d = os.path.join(e.tmp, "hproj")
    os.makedirs(os.path.join(d, "include"), exist_ok=True)
    with open(os.path.join(d, "include", "sync_helpers.h"), "w") as fh:
        fh.write(HEADER)
    main = os.path.join(d, "main.cpp")
    with open(main, "w") as fh:
        fh.write(MAIN)
    return main, ["-I" + os.path.join(d, "include")]


def located(doc):
    return sorted((os.path.basename(f["file"]), f["line"]) for f in doc["findings"])


# --- Options that must never print help ---------------------------------------

@case
def tidy_h_prefixes_never_print_help(e):
    main, inc = header_project(e)
    rc, out, err = e.run(["-header-filter=.*", main, "--"] + e.flags + inc)
    T.check("OVERVIEW" not in out, "-header-filter printed the help:\n" + out)
    T.check(rc == 1 and "main.cpp:8:" in out and "sync_helpers.h:7:" in out,
            f"-header-filter=.* did not analyze: rc={rc}\n{out}{err}")
    for bad in ("-hfoo", "-h=1", "--hx", "-header", "-headerfilter=.*", "-help=x"):
        rc, out, err = e.run([bad, main, "--"] + e.flags)
        T.one_error_line(rc, err, bad)
        T.check(out == "" and bad in err, f"{bad}: {out!r} {err!r}")


@case
def tidy_unknown_options_exit_2(e):
    src = e.path("clean.cpp")
    for bad in ("--no-such-option", "-checkz=*", "--dump-config", "-system-headers",
                "--format-style=llvm", "-load=x.so", "--enable-check-profile"):
        rc, out, err = e.run([bad, src, "--"] + e.flags)
        line = T.one_error_line(rc, err, bad)
        T.check(bad.split("=")[0] in line and out == "", f"{bad}: {line!r} {out!r}")
    rc, _, err = e.run(["--dump-config", src])
    T.check("not supported by distlint" in err, err)


# --- Rule selection -----------------------------------------------------------

@case
def tidy_checks_globs_and_config_combination(e):  # NEEDS_RULE
    src = e.path("divergent.cpp")
    rc, doc, _ = e.json([src], ["-checks=-*,distlint-missing-timeout"])
    T.check(rc == 0 and doc["findings"] == [], f"-checks=-*: {rc} {doc['findings']}")
    rc, doc, _ = e.json([src], ["--checks=-*,distlint-rank-*"])
    T.check(rc == 1 and T.findings_at(doc) == [("divergent.cpp", 9)], f"{rc} {doc}")
    rc, _, err = e.run(["-checks=-*", src, "--"] + e.flags)
    T.one_error_line(rc, err, "-checks=-*")
    # Like .clang-tidy: the file's Checks apply first, -checks= after them.
    d = os.path.join(e.tmp, "cfg")
    copy = e.copy("divergent.cpp", d)
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("Checks: '-*'\n")
    rc, out, err = e.run(["--format=json", copy, "--"] + e.flags)
    T.check("enables no rule" in err or json.loads(out or "{}").get("findings") == [],
            f"config Checks '-*' ignored: {rc} {out} {err}")
    rc, doc, _ = e.json([copy], ["-checks=distlint-rank-divergent-collective"])
    T.check(rc == 1 and T.findings_at(doc) == [("divergent.cpp", 9)],
            f"-checks= after the file's Checks: {rc} {doc}")
    rc, out, _ = e.run(["--list-checks", "-checks=-*,distlint-missing-*"])
    listed = [l.strip() for l in out.splitlines()[1:] if l.strip()]
    T.check(rc == 0 and listed == ["distlint-missing-set-epoch", "distlint-missing-timeout"],
            f"--list-checks: {listed}")


@case
def tidy_header_filter(e):  # NEEDS_RULE
    main, inc = header_project(e)
    flags = e.flags + inc
    def run(extra):
        rc, out, err = e.run(["--format=json"] + extra + [main, "--"] + flags)
        return rc, json.loads(out), err
    rc, doc, _ = run([])
    T.check(located(doc) == [("main.cpp", 8), ("sync_helpers.h", 7)],
            f"default must report the project's headers: {located(doc)}")
    rc, doc, err = run(["-header-filter=no_such_dir/"])
    T.check(located(doc) == [("main.cpp", 8)], f"non-matching filter: {located(doc)}")
    rc, doc, _ = run(["-header-filter=include/sync_.*"])
    T.check(located(doc) == [("main.cpp", 8), ("sync_helpers.h", 7)], f"{located(doc)}")
    rc, doc, _ = run(["-header-filter=.*", "-exclude-header-filter=sync_helpers"])
    T.check(located(doc) == [("main.cpp", 8)], f"exclude: {located(doc)}")
    # The main file is always reported, as in clang-tidy.
    rc, doc, _ = run(["-header-filter=^$", "-exclude-header-filter=main"])
    T.check(("main.cpp", 8) in located(doc), f"main file dropped: {located(doc)}")
    rc, out, err = e.run(["-header-filter=[", main, "--"] + flags)
    T.one_error_line(rc, err, "-header-filter=[")
    # The summary says what the filter removed.
    rc, out, err = e.run(["-header-filter=nomatch", main, "--"] + flags)
    T.check("1 in headers outside the header filter" in err, err)
    # .distlint.yaml's HeaderFilterRegex, overridden by the option.
    with open(os.path.join(os.path.dirname(main), ".distlint.yaml"), "w") as fh:
        fh.write("HeaderFilterRegex: 'nomatch'\n")
    rc, doc, _ = run([])
    T.check(located(doc) == [("main.cpp", 8)], f"HeaderFilterRegex: {located(doc)}")
    rc, doc, _ = run(["-header-filter=.*"])
    T.check(len(located(doc)) == 2, f"option over config: {located(doc)}")


@case
def tidy_warnings_as_errors(e):  # NEEDS_RULE
    src = e.path("divergent.cpp")
    rc, doc, _ = e.json([src], ["--warnings-as-errors=distlint-rank-*", "--fail-on=error"])
    T.check(rc == 1 and [f["severity"] for f in doc["findings"]] == ["error"], f"{rc} {doc}")
    rc, out, _ = e.lint([src], ["-warnings-as-errors=*"])
    T.check(re.search(r"divergent.cpp:9:\d+: error: ", out), out)
    rc, doc, _ = e.json([src], ["--warnings-as-errors=distlint-missing-*", "--fail-on=error"])
    T.check(rc == 0 and doc["findings"][0]["severity"] == "warning", f"{rc} {doc}")


@case
def tidy_config_inline_and_file(e):  # NEEDS_RULE
    src = e.path("divergent.cpp")
    rc, doc, _ = e.json([src], ["-config={Checks: '-*,distlint-missing-timeout'}"])
    T.check(rc == 0 and doc["findings"] == [], f"-config: {rc} {doc}")
    rc, doc, _ = e.json([src], ["--config={WarningsAsErrors: '*'}"])
    T.check(rc == 1 and doc["findings"][0]["severity"] == "error", f"{doc}")
    cfg = os.path.join(e.tmp, "other.yaml")
    with open(cfg, "w") as fh:
        fh.write("Rules: '-distlint-rank-*'\n")
    rc, doc, _ = e.json([src], ["--config-file=" + cfg])
    T.check(rc == 0 and doc["findings"] == [], f"--config-file: {rc} {doc}")
    rc, out, err = e.run(["-config=" + cfg, src, "--"] + e.flags)
    line = T.one_error_line(rc, err, "-config=<file>")
    T.check("--config-file" in line, line)
    rc, out, err = e.run(["-config={Nope: 1}", src, "--"] + e.flags)
    T.one_error_line(rc, err, "-config unknown key")


# --- Fixes ----------------------------------------------------------------

FIXABLE = [  # (testdata file, rule) whose findings have a fix
    ("timeout/gloo_default_timeout_buggy.cpp", "distlint-missing-timeout"),
    ("timeout/unusable_timeout_values_buggy.cpp", "distlint-missing-timeout"),
    ("timeout/store_timeouts_buggy.cpp", "distlint-missing-timeout"),
    ("timeout/timeout_on_some_paths_buggy.cpp", "distlint-missing-timeout"),
    ("set-epoch/loader_built_once_buggy.cpp", "distlint-missing-set-epoch"),
    ("device-sync/explicit_device_sync_buggy.cpp", "distlint-stray-device-sync"),
]


def tool(name):
    path = shutil.which(name)
    if not path:
        raise T.Failure(f"{name} not installed (scripts/setup.sh installs it)")
    return path


def fingerprints(doc):
    return sorted((f["rule"], f["message"], f["line"]) for f in doc["findings"])


@case
def tidy_export_fixes_apply_compile_and_vanish(e):  # NEEDS_RULE
    """--export-fixes YAML -> clang-apply-replacements-19 -> the fixed
    findings are gone, no new one appears, clang++-19 -fsyntax-only passes."""
    apply = tool("clang-apply-replacements-19")
    cxx = tool("clang++-19")
    fixed_any = 0
    for rel, rule in FIXABLE:
        work = os.path.join(e.tmp, "fix-" + os.path.basename(rel)[:-4])
        os.makedirs(work)
        src = os.path.join(work, os.path.basename(rel))
        shutil.copy(os.path.join(e.repo, "testdata", rel), src)
        yaml_file = os.path.join(work, "fixes.yaml")
        rc, before, err = e.json([src], ["--export-fixes=" + yaml_file])
        T.check(rc in (0, 1) and os.path.exists(yaml_file), f"{rel}: rc={rc} {err}")
        with open(yaml_file) as fh:
            text = fh.read()
        T.check(text.startswith("---\nMainSourceFile:") and "Diagnostics:" in text
                and text.count("DiagnosticName:") == len(before["findings"]),
                f"{rel}: not one YAML entry per finding:\n{text}")
        n_fix = text.count("ReplacementText:")
        T.check(n_fix > 0, f"{rel}: no replacement exported:\n{text}")
        p = subprocess.run([apply, work], capture_output=True, text=True)
        T.check(p.returncode == 0, f"clang-apply-replacements on {rel}: {p.stderr}")
        rc, after, err = e.json([src])
        gone = [f for f in fingerprints(before) if f[0] == rule]
        now = [f for f in fingerprints(after) if f[0] == rule]
        T.check(len(now) < len(gone), f"{rel}: no finding fixed:\n{now}")
        old_msgs = {(f[0], f[1]) for f in fingerprints(before)}
        new = [f for f in fingerprints(after) if (f[0], f[1]) not in old_msgs]
        T.check(not new, f"{rel}: the fix made new findings: {new}")
        T.check(after["errors"] == [], f"{rel}: fixed file does not parse: {after['errors']}")
        p = subprocess.run([cxx, "-fsyntax-only", "-std=c++17",
                            "-I" + os.path.join(e.repo, "testdata", "include"), src],
                           capture_output=True, text=True)
        T.check(p.returncode == 0, f"{rel}: fixed code does not compile:\n{p.stderr}")
        fixed_any += len(gone) - len(now)
        print(f"{rel}: {len(gone) - len(now)} of {len(gone)} {rule} finding(s) fixed")
    T.check(fixed_any >= len(FIXABLE), "too few fixes")


@case
def tidy_fix_in_place_and_fix_errors(e):  # NEEDS_RULE
    d = os.path.join(e.tmp, "inplace")
    src = os.path.join(d, "t.cpp")
    os.makedirs(d)
    shutil.copy(os.path.join(e.repo, "testdata", "timeout", "unusable_timeout_values_buggy.cpp"), src)
    rc, before, _ = e.json([src])
    rc, out, err = e.lint([src], ["--fix"])
    T.check(re.search(r"applied [1-9]\d* fix\(es\) to 1 file", err), err)
    rc, after, _ = e.json([src])
    T.check(len(after["findings"]) < len(before["findings"]), f"{before} -> {after}")
    # A file with compile errors: --fix refuses, --fix-errors applies.
    bad = os.path.join(d, "bad.cpp")
    shutil.copy(os.path.join(e.repo, "testdata", "timeout", "unusable_timeout_values_buggy.cpp"), bad)
    with open(bad, "a") as fh:
        fh.write("\nint broken = ;\n")
    with open(bad) as fh:
        original = fh.read()
    rc, out, err = e.lint([bad], ["--fix"])
    with open(bad) as fh:
        T.check(fh.read() == original and "--fix-errors" in err, f"--fix changed it: {err}")
    rc, out, err = e.lint([bad], ["--fix-errors"])
    with open(bad) as fh:
        T.check(fh.read() != original, f"--fix-errors applied nothing: {err}")


# --- Other rows ----------------------------------------------------------------

@case
def tidy_version_quiet_extra_arg_p(e):  # NEEDS_RULE
    rc, out, err = e.run(["--version"])
    # The LLVM it runs on and the API releases its tables describe (issue 28).
    T.check(rc == 0 and re.match(r"distlint \d+\.\d+\.\d+\n  LLVM 19\.\d+\.\d+ \(.+\)\n"
                                 r"  API tables: MPI \d[\d.]*, NCCL \d[\d.]*, LibTorch \d", out),
            out + err)
    rc, out, err = e.lint([e.path("divergent.cpp")], ["--quiet"])
    T.check(rc == 1 and err == "", f"--quiet printed: {err!r}")
    rc, out, err = e.lint([e.path("divergent.cpp")])
    T.check("distlint: 1 finding(s) in 1 translation unit(s)" in err, err)
    # --extra-arg / -p: the database lacks the include path, --extra-arg adds it.
    d = os.path.join(e.tmp, "p")
    src = e.copy("divergent.cpp", d)
    e.write_db(os.path.join(d, "build"), [(src, ["-std=c++17"])])
    rc, doc, err = e.run(["-p", os.path.join(d, "build"), "--format=json", src])
    T.check(rc == 2 and "mpi.h" in err, f"without --extra-arg: {rc} {err}")
    inc = "-I" + os.path.join(e.repo, "testdata", "include")
    rc, out, err = e.run(["-p", os.path.join(d, "build"), "--extra-arg=" + inc,
                          "--format=json", src])
    T.check(rc == 1 and T.findings_at(json.loads(out)) == [("divergent.cpp", 9)], f"{rc} {out} {err}")
    rc, out, err = e.run(["-p=" + os.path.join(d, "build"), "--extra-arg", inc, src])
    T.check(rc == 1, f"-p=dir --extra-arg x: {rc} {err}")


@case
def tidy_use_color(e):  # NEEDS_RULE
    rc, out, _ = e.lint([e.path("divergent.cpp")], ["--use-color"])
    T.check("\x1b[" in out, "--use-color gave no color")
    rc, out, _ = e.lint([e.path("divergent.cpp")], ["--use-color=false"])
    T.check("\x1b[" not in out, "--use-color=false gave color")


# --- Errors where tools look ----------------------------------------------------

@case
def tidy_text_errors_on_stderr_clang_form(e):
    rc, out, err = e.lint([e.path("syntax_error.cpp"), e.path("clean.cpp")])
    T.check(rc == 2 and "error" not in out, f"errors on stdout: {out!r}")
    m = re.search(r"^(/\S+syntax_error\.cpp):(\d+):(\d+): error: (.+)$", err, re.M)
    T.check(m and int(m.group(2)) > 0, f"no clang-style error on stderr:\n{err}")
    T.check("distlint: 0 finding(s) in 2 translation unit(s), 1 file(s) failed" in err, err)
    # No place of its own (no compile command): line 1, column 1.
    rc, out, err = e.run([os.path.join(e.tmp, "nowhere.cpp"), e.path("clean.cpp"), "--"] + e.flags)
    T.check(re.search(r"nowhere\.cpp:1:1: error: no such file", err), err)


@case
def tidy_clean_run_on_terminal_says_so(e):
    rc, out = T.run_on_tty(e, [e.path("clean.cpp"), "--"] + e.flags)
    T.check(rc == 0 and "distlint: no findings in 1 translation unit(s)" in out, out)
    rc, out = T.run_on_tty(e, ["--quiet", e.path("clean.cpp"), "--"] + e.flags)
    T.check("no findings" not in out, out)
    rc, out, err = e.lint([e.path("clean.cpp")])
    T.check(err == "" and out == "", f"not a terminal: {out!r} {err!r}")


# --- Database discovery you can see -------------------------------------------

def two_projects(e):
    """repo/ (a CMake project, build/ = its database) and repo/examples/ (its
    own project, not configured)."""
    repo = os.path.join(e.tmp, "repo")
    os.makedirs(os.path.join(repo, "lib"))
    os.makedirs(os.path.join(repo, "examples"))
    os.makedirs(os.path.join(repo, ".git"))
    with open(os.path.join(repo, "CMakeLists.txt"), "w") as fh:
        fh.write("project(outer CXX)\n")
    with open(os.path.join(repo, "examples", "CMakeLists.txt"), "w") as fh:
        fh.write("project(example CXX)\n")
    lib = e.copy("clean.cpp", os.path.join(repo, "lib"), "lib.cpp")
    ex = e.copy("divergent.cpp", os.path.join(repo, "examples"), "train.cpp")
    e.write_db(os.path.join(repo, "build"), [(lib, ["-DUNRELATED"] + e.flags)])
    return repo, lib, ex


@case
def tidy_foreign_database_is_not_borrowed(e):
    repo, lib, ex = two_projects(e)
    rc, out, err = e.run([os.path.relpath(ex, repo)], cwd=repo)
    T.check(rc == 2, f"exit {rc}: {out}{err}")
    m = re.search(r"train\.cpp:1:1: error: no compilation database for this file's project "
                  r"(\S+): (\S+)/compile_commands.json only has files of another source root.*-p ",
                  err)
    T.check(m and m.group(1) == os.path.join(repo, "examples")
            and m.group(2) == os.path.join(repo, "build"), err)
    # With -p it is used as asked, and --verbose says it borrowed a command.
    rc, out, err = e.run(["--verbose", "-p", "build", "examples/train.cpp"], cwd=repo)
    T.check(re.search(r"train\.cpp: using compile database " + re.escape(repo) +
                      r"/build/compile_commands.json, command borrowed from " +
                      re.escape(lib), err), err)
    # ... and the first error about the file says so too.
    with open(ex, "a") as fh:
        fh.write("#ifdef UNRELATED\n#error built with the flags of another project\n#endif\n")
    rc, out, err = e.run(["-p", "build", "examples/train.cpp"], cwd=repo)
    T.check(re.search(r"train\.cpp:\d+:\d+: error: built with the flags of another project "
                      r"\[using compile database .*command borrowed from .*lib\.cpp\]", err), err)


@case
def tidy_verbose_names_the_database(e):
    repo, lib, ex = two_projects(e)
    rc, out, err = e.run(["--verbose", "lib/lib.cpp"], cwd=repo)
    T.check(rc == 0 and re.search(r"lib\.cpp: using compile database " + re.escape(repo)
                                  + r"/build/compile_commands.json$", err, re.M), f"{rc} {err}")
    rc, out, err = e.run(["--verbose", e.path("clean.cpp"), "--"] + e.flags)
    T.check("clean.cpp: using flags after --" in err, err)


@case
def tidy_fix_values_from_config(e):  # NEEDS_RULE
    """MissingTimeoutDefault and StepSyncInterval from .distlint.yaml."""
    d = os.path.join(e.tmp, "vals")
    os.makedirs(d)
    t = os.path.join(d, "t.cpp")
    s = os.path.join(d, "s.cpp")
    shutil.copy(os.path.join(e.repo, "testdata", "timeout", "unusable_timeout_values_buggy.cpp"), t)
    shutil.copy(os.path.join(e.repo, "testdata", "device-sync", "explicit_device_sync_buggy.cpp"), s)
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("MissingTimeoutDefault: 'std::chrono::seconds(90)'\nStepSyncInterval: 50\n")
    out_yaml = os.path.join(d, "f.yaml")
    rc, out, err = e.lint([t, s], ["--export-fixes=" + out_yaml])
    with open(out_yaml) as fh:
        text = fh.read()
    T.check("ReplacementText: 'std::chrono::seconds(90)'" in text, text)
    T.check("ReplacementText: 'if (step % 50 == 0) '" in text, text)
    T.check("MainSourceFile:  ''" in text, "several files: empty MainSourceFile\n" + text)
    with open(os.path.join(d, ".distlint.yaml"), "w") as fh:
        fh.write("StepSyncInterval: 1\n")
    rc, out, err = e.lint([s])
    T.one_error_line(rc, err, "StepSyncInterval: 1")
