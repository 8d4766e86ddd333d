// Does not parse: a missing header is a fatal error.
#include "this_header_does_not_exist.h"

int main() { return 0; }
