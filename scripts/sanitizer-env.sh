# Sanitizer settings of distlint's sanitized test runs; sourced by
# scripts/test.sh and scripts/test-sanitized.sh (and by hand before running
# ctest in a sanitized tree):  source scripts/sanitizer-env.sh
# Any sanitizer report aborts the process it is in, so a test cannot pass
# over one.
_distlint_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# handle_segv=0: a crash the tests cause on purpose (the parser's stack
# overflow in robustness/) stays a signal the driver reports, as in a
# regular build; any other crash still fails its test.
# include_if_exists: per-program settings for programs we do not build but
# run the sanitized recorder in (tests/sanitizers/hosts/<program>.options).
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0:handle_segv=0:include_if_exists=$_distlint_root/tests/sanitizers/hosts/%b.options"
# Open MPI unloads its plugins at MPI_Finalize, which leaves LeakSanitizer
# their allocations without a module name to suppress by (lsan.supp).
export OMPI_MCA_mca_base_component_disable_dlclose=1
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$_distlint_root/tests/sanitizers/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$_distlint_root/tests/sanitizers/tsan.supp"
unset _distlint_root
