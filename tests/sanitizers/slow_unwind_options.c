// Linked into the MPI test programs of a sanitized build (tests/runtime).
// Open MPI is built without frame pointers: with the fast unwinder the
// allocations it keeps until exit show no module, and lsan.supp cannot match
// them. These programs allocate little, so the slow unwinder costs nothing.
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }
