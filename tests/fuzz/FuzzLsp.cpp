//===- FuzzLsp.cpp - LSP framing and the helpers messages reach -----------===//
#include "Harnesses.h"

#include "LspServer.h"

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace distlint::fuzz {

int lspFraming(const uint8_t *Data, size_t Size) {
  std::istringstream In(std::string(reinterpret_cast<const char *>(Data), Size));
  std::string Body;
  unsigned long long Length = 0;
  // A small limit so the fuzzer reaches the oversized path cheaply.
  for (int Messages = 0; Messages < 64; ++Messages) {
    lsp::ReadStatus S = lsp::readMessage(In, Body, Length, /*MaxBytes=*/4096);
    if (S == lsp::ReadStatus::EndOfInput)
      break;
    if (S != lsp::ReadStatus::Message)
      continue;
    if (Body.size() != Length || Body.size() > 4096)
      __builtin_trap();
    auto Msg = nlohmann::json::parse(Body, nullptr, /*allow_exceptions=*/false);
    if (Msg.is_object() && Msg.contains("uri") && Msg["uri"].is_string()) {
      std::string Path = lsp::uriToPath(Msg["uri"].get<std::string>());
      lsp::pathToUri(Path);
    }
    lsp::uriToPath(Body);
    lsp::utf16Character(Body, static_cast<unsigned>(Body.size() % 97));
    lsp::frameMessage(Body);
  }
  return 0;
}

} // namespace distlint::fuzz
