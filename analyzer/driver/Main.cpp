// Temporary entry point; the real driver replaces this file.
#include "Rule.h"
#include <cstdio>
int main() {
  for (const auto &R : distlint::allRules())
    std::printf("%s\n", R.Id);
  return 0;
}
