//===- Forward.cpp - Find the real definition behind a hook ---------------===//
#include "Forward.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

namespace distlint {
namespace rt {

void *findRealSymbol(const char *Name, const char *const *Sonames,
                     const char *Prefix) {
  char Prefixed[256];
  if (Prefix && *Prefix) {
    if (size_t(snprintf(Prefixed, sizeof Prefixed, "%s%s", Prefix, Name)) >=
        sizeof Prefixed)
      return nullptr;
    Name = Prefixed;
  }
  if (void *P = dlsym(RTLD_NEXT, Name))
    return P;
  for (const char *const *S = Sonames; S && *S; ++S)
    if (void *Lib = dlopen(*S, RTLD_NOLOAD | RTLD_LAZY))
      if (void *P = dlsym(Lib, Name))
        return P;
  return nullptr;
}

void reportMissingReal(const char *ApiName, const char *Name) {
  static std::mutex Mu;
  static std::set<std::string> *Reported = new std::set<std::string>();
  std::lock_guard<std::mutex> Lock(Mu);
  if (!Reported->insert(ApiName).second)
    return;
  logLine(
      "the program called %s, but no %s library defines it after the preload "
      "library (is it loaded?); returning an error",
      Name, ApiName);
}

} // namespace rt
} // namespace distlint
