//===- LspServer.h - distlint as a language server --------------*- C++ -*-===//
//
// `distlint --lsp`: a small Language Server Protocol server on stdin/stdout.
// clangd cannot load out-of-tree checks, so this is how an editor shows
// distlint's findings live: diagnostics are published for a document when it
// is opened and when it is saved, computed by the same analyzeFiles() the CLI
// runs (compile database lookup, config files, NOLINT), with the editor's
// unsaved text passed as an overlay. Notes become relatedInformation.
//
// Supported: initialize, initialized, shutdown, exit,
// textDocument/didOpen, didChange (full sync, stored only), didSave,
// didClose. initializationOptions may hold {"compilationDatabasePath": dir}
// (clangd's name) and {"rules": "<globs>"}.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Runner.h"

#include <iosfwd>
#include <string>

namespace distlint {

/// Serves LSP on stdin/stdout until `exit` (declared in Runner.h as well, so
/// the CLI needs no LSP header). Base: -p, --config, --rules etc. from the
/// command line. Returns 0 after shutdown+exit, 1 on exit without shutdown or
/// end of input.
int runLspServer(const DriverOptions &Base);

namespace lsp {

/// Largest message body the server accepts (64 MiB): bigger ones are
/// answered with a JSON-RPC error and skipped without being stored.
constexpr size_t MaxMessageBytes = size_t(64) << 20;
/// Header lines longer than this, or more lines than this, make the header
/// malformed (they are read and dropped, never stored).
constexpr size_t MaxHeaderLine = 1024;
constexpr unsigned MaxHeaderLines = 32;

enum class ReadStatus {
  Message,    ///< Body holds one message.
  TooLarge,   ///< Content-Length (in Length) above MaxBytes; body skipped.
  BadHeader,  ///< No or unparsable Content-Length; the header was consumed.
  EndOfInput, ///< Input ended (possibly inside a message).
};

/// Reads one `Content-Length: N\r\n...\r\n\r\n<N bytes>` message. Memory
/// grows with the bytes that really arrive, never with the claimed length.
ReadStatus readMessage(std::istream &In, std::string &Body,
                       unsigned long long &Length,
                       size_t MaxBytes = MaxMessageBytes);
/// The same framing for output.
std::string frameMessage(const std::string &Body);

/// file:// URI <-> absolute path (percent-encoding handled).
std::string uriToPath(const std::string &Uri);
std::string pathToUri(const std::string &Path);

/// LSP positions count UTF-16 code units; Clang columns count bytes (1-based).
/// Converts a 1-based byte column on LineText to a 0-based UTF-16 offset.
unsigned utf16Character(const std::string &LineText, unsigned ByteColumn);

} // namespace lsp
} // namespace distlint
