//===- ReplayMain.cpp - run kept inputs through a harness, no libFuzzer ---===//
//
//   distlint_fuzz_replay <harness> <file-or-dir>...
// Runs every file through the harness in this process; a crash or sanitizer
// report fails the test. Used by ctest on the crashers found so far and the
// seed corpora, in every build (the harnesses do not need libFuzzer).
//
//===----------------------------------------------------------------------===//
#include "Harnesses.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace distlint::fuzz;
namespace fs = std::filesystem;

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::fprintf(stderr, "usage: %s analyze|inputs|lsp|trace <file-or-dir>...\n",
                 Argv[0]);
    return 2;
  }
  int (*Harness)(const uint8_t *, size_t) = nullptr;
  std::string Name = Argv[1];
  if (Name == "analyze")
    Harness = analyzeSource;
  else if (Name == "inputs")
    Harness = readInputs;
  else if (Name == "lsp")
    Harness = lspFraming;
#ifdef DISTLINT_FUZZ_HAVE_TRACE
  else if (Name == "trace")
    Harness = traceReader;
#endif
  if (!Harness) {
    std::fprintf(stderr, "unknown harness '%s'\n", Name.c_str());
    return 2;
  }
  std::vector<fs::path> Files;
  for (int I = 2; I < Argc; ++I) {
    fs::path P = Argv[I];
    if (fs::is_directory(P)) {
      for (const auto &E : fs::recursive_directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else if (fs::exists(P)) {
      Files.push_back(P);
    } else {
      std::fprintf(stderr, "no such input: %s\n", Argv[I]);
      return 2;
    }
  }
  std::sort(Files.begin(), Files.end());
  if (Files.empty()) {
    std::fprintf(stderr, "no inputs to replay\n");
    return 2;
  }
  for (const fs::path &P : Files) {
    std::ifstream In(P, std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(In)),
                      std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay %s (%zu bytes)\n", P.c_str(), Bytes.size());
    Harness(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size());
  }
  std::printf("replayed %zu input(s) through %s without a crash\n", Files.size(),
              Name.c_str());
  return 0;
}
