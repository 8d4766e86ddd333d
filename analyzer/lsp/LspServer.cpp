//===- LspServer.cpp - The `distlint --lsp` message loop ------------------===//
//
// Deliberately small and single-threaded: one request at a time, analysis
// runs synchronously on open/save (a TU takes well under a second on typical
// code; editors queue further messages meanwhile). Each analysis runs in a
// child process (driver/Isolation.h), so a document that crashes Clang
// becomes a logged error, not a dead server; oversized or malformed messages
// get a JSON-RPC error and the loop goes on (Protocol.cpp).
//
//===----------------------------------------------------------------------===//
#include "LspServer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace distlint {
namespace {

// In the namespace: a unity batch may also see llvm::json through a
// `using namespace llvm`.
using json = nlohmann::json;

// JSON-RPC / LSP error codes.
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int ServerNotInitialized = -32002;

// LSP DiagnosticSeverity and MessageType.
constexpr int SeverityError = 1, SeverityWarning = 2, SeverityInfo = 3;
constexpr int MessageError = 1, MessageWarning = 2, MessageLog = 4;

std::string normalizePath(const std::string &Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Copy(Path);
  llvm::sys::path::remove_dots(Copy, /*remove_dot_dot=*/true);
  return std::string(Copy);
}

struct Document {
  std::string Uri; ///< As the client spelled it; diagnostics go back to it.
  std::string Text;
  long Version = 0;
};

class Server {
public:
  Server(const DriverOptions &Base, FILE *Out) : Opts(Base), Out(Out) {}
  int run(std::istream &In);

private:
  void handle(const json &Msg);
  void onInitialize(const json &Id, const json &Params);
  void analyzeAndPublish(const std::string &Path);
  json toDiagnostic(const Finding &F, const std::string &DocPath);
  json rangeAt(const std::string &File, unsigned Line, unsigned Column);
  const std::string &fileText(const std::string &Path);

  void send(const json &Msg);
  void reply(const json &Id, json Result) {
    send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
  }
  void replyError(const json &Id, int Code, const std::string &Message) {
    send({{"jsonrpc", "2.0"},
          {"id", Id},
          {"error", {{"code", Code}, {"message", Message}}}});
  }
  void notify(const std::string &Method, json Params) {
    send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
  }
  void message(const char *Method, int Type, const std::string &Text) {
    notify(Method, {{"type", Type}, {"message", Text}});
  }

  DriverOptions Opts;
  FILE *Out;
  bool Initialized = false;
  bool ShutdownRequested = false;
  bool Exited = false;
  bool ClientRelatedInformation = false;
  std::map<std::string, Document> Docs;   ///< Open documents by path.
  std::set<std::string> WarnedNoCommand; ///< Files we already told about.
  /// Texts of files notes point into, for UTF-16 columns (per publish).
  std::map<std::string, std::string> TextCache;
};

void Server::send(const json &Msg) {
  std::string Framed = lsp::frameMessage(Msg.dump());
  std::fwrite(Framed.data(), 1, Framed.size(), Out);
  std::fflush(Out);
}

int Server::run(std::istream &In) {
  std::string Body;
  unsigned long long Length = 0;
  while (!Exited) {
    lsp::ReadStatus Status = lsp::readMessage(In, Body, Length);
    if (Status == lsp::ReadStatus::EndOfInput)
      break;
    if (Status == lsp::ReadStatus::TooLarge) {
      replyError(nullptr, InvalidRequest,
                 "message of " + std::to_string(Length) +
                     " bytes exceeds distlint's limit of " +
                     std::to_string(lsp::MaxMessageBytes >> 20) + " MiB");
      continue;
    }
    if (Status == lsp::ReadStatus::BadHeader) {
      replyError(nullptr, ParseError,
                 "malformed message header (no valid Content-Length)");
      continue;
    }
    json Msg = json::parse(Body, nullptr, /*allow_exceptions=*/false);
    if (Msg.is_discarded() || !Msg.is_object()) {
      replyError(nullptr, ParseError, "malformed JSON-RPC message");
      continue;
    }
    try {
      handle(Msg);
    } catch (const json::exception &E) {
      // A request with fields of the wrong type: answer it, keep serving.
      if (Msg.contains("id"))
        replyError(Msg["id"], InvalidRequest, E.what());
    }
  }
  return Exited && ShutdownRequested ? 0 : 1;
}

void Server::handle(const json &Msg) {
  if (!Msg.contains("method"))
    return; // A response to a request we never send.
  const std::string Method = Msg["method"].get<std::string>();
  const bool IsRequest = Msg.contains("id");
  const json Id = IsRequest ? Msg["id"] : json();
  const json Params = Msg.value("params", json::object());

  if (Method == "exit") {
    Exited = true;
    return;
  }
  if (ShutdownRequested) {
    if (IsRequest)
      replyError(Id, InvalidRequest, "server is shutting down");
    return;
  }
  if (Method == "initialize")
    return onInitialize(Id, Params);
  if (!Initialized) {
    if (IsRequest)
      replyError(Id, ServerNotInitialized, "initialize first");
    return;
  }
  if (Method == "shutdown") {
    ShutdownRequested = true;
    return reply(Id, nullptr);
  }
  if (Method == "textDocument/didOpen") {
    const json &Doc = Params.at("textDocument");
    std::string Path = normalizePath(lsp::uriToPath(Doc.at("uri")));
    Docs[Path] = {Doc.at("uri").get<std::string>(),
                  Doc.at("text").get<std::string>(), Doc.value("version", 0L)};
    return analyzeAndPublish(Path);
  }
  if (Method == "textDocument/didChange") {
    // Full sync: the last change holds the whole text. Analysis waits for
    // the save; the overlay keeps other open files' analysis current.
    std::string Path =
        normalizePath(lsp::uriToPath(Params.at("textDocument").at("uri")));
    auto It = Docs.find(Path);
    if (It == Docs.end())
      return;
    It->second.Version = Params.at("textDocument").value("version", 0L);
    for (const json &Change : Params.at("contentChanges"))
      if (!Change.contains("range"))
        It->second.Text = Change.at("text").get<std::string>();
    return;
  }
  if (Method == "textDocument/didSave") {
    std::string Path =
        normalizePath(lsp::uriToPath(Params.at("textDocument").at("uri")));
    auto It = Docs.find(Path);
    if (It != Docs.end() && Params.contains("text"))
      It->second.Text = Params["text"].get<std::string>();
    return analyzeAndPublish(Path);
  }
  if (Method == "textDocument/didClose") {
    std::string Uri = Params.at("textDocument").at("uri");
    Docs.erase(normalizePath(lsp::uriToPath(Uri)));
    notify("textDocument/publishDiagnostics",
           {{"uri", Uri}, {"diagnostics", json::array()}});
    return;
  }
  if (IsRequest)
    replyError(Id, MethodNotFound, "distlint does not implement " + Method);
  // Unknown notifications ($/cancelRequest, workspace/...) are ignored.
}

void Server::onInitialize(const json &Id, const json &Params) {
  std::string Root;
  if (Params.contains("rootUri") && Params["rootUri"].is_string())
    Root = lsp::uriToPath(Params["rootUri"]);
  else if (Params.contains("rootPath") && Params["rootPath"].is_string())
    Root = Params["rootPath"];
  if (!Root.empty() && llvm::sys::fs::is_directory(Root)) {
    // Paths in findings are made relative to the workspace, and without -p
    // the compile database is searched in the workspace's build*/ dirs.
    if (Opts.ProjectRoot.empty())
      Opts.ProjectRoot = Root;
    if (Opts.BuildPath.empty() && !Opts.UseFixedFlags)
      (void)!chdir(Root.c_str());
  }
  if (Params.contains("initializationOptions") &&
      Params["initializationOptions"].is_object()) {
    const json &Init = Params["initializationOptions"];
    if (Init.contains("compilationDatabasePath"))
      Opts.BuildPath = Init["compilationDatabasePath"].get<std::string>();
    if (Init.contains("rules"))
      Opts.RuleGlobs = Init["rules"].get<std::string>();
  }
  const json Caps = Params.value("capabilities", json::object());
  ClientRelatedInformation =
      Caps.value("/textDocument/publishDiagnostics/relatedInformation"_json_pointer,
                 false);
  Opts.Jobs = 1;
  Opts.Progress = nullptr;
  Initialized = true;
  reply(Id, {{"capabilities",
              {{"textDocumentSync",
                {{"openClose", true},
                 {"change", 1}, // Full.
                 {"save", {{"includeText", false}}}}}}},
             {"serverInfo", {{"name", "distlint"}, {"version", toolVersion()}}}});
}

const std::string &Server::fileText(const std::string &Path) {
  auto Doc = Docs.find(Path);
  if (Doc != Docs.end())
    return Doc->second.Text;
  auto It = TextCache.find(Path);
  if (It == TextCache.end()) {
    std::ifstream In(Path, std::ios::binary);
    std::stringstream SS;
    SS << In.rdbuf();
    It = TextCache.emplace(Path, SS.str()).first;
  }
  return It->second;
}

json Server::rangeAt(const std::string &File, unsigned Line, unsigned Column) {
  unsigned L = Line > 0 ? Line - 1 : 0;
  const std::string &Text = fileText(File);
  size_t Begin = 0;
  for (unsigned I = 0; I < L && Begin != std::string::npos; ++I) {
    Begin = Text.find('\n', Begin);
    if (Begin != std::string::npos)
      ++Begin;
  }
  std::string LineText;
  if (Begin != std::string::npos)
    LineText = Text.substr(Begin, Text.find('\n', Begin) - Begin);
  // Underline the identifier the finding points at (at least one character).
  unsigned EndByte = Column > 0 ? Column - 1 : 0;
  while (EndByte < LineText.size() &&
         (std::isalnum(static_cast<unsigned char>(LineText[EndByte])) ||
          LineText[EndByte] == '_'))
    ++EndByte;
  unsigned Start = lsp::utf16Character(LineText, Column);
  unsigned End = std::max(Start + 1, lsp::utf16Character(LineText, EndByte + 1));
  return {{"start", {{"line", L}, {"character", Start}}},
          {"end", {{"line", L}, {"character", End}}}};
}

json Server::toDiagnostic(const Finding &F, const std::string &DocPath) {
  int Sev = F.Sev == Severity::Error     ? SeverityError
            : F.Sev == Severity::Warning ? SeverityWarning
                                         : SeverityInfo;
  json D = {{"range", rangeAt(DocPath, F.Loc.Line, F.Loc.Column)},
            {"severity", Sev},
            {"code", F.Rule},
            {"source", "distlint"},
            {"message", F.Message}};
  if (ClientRelatedInformation) {
    json Related = json::array();
    for (const Note &N : F.Notes) {
      std::string File = normalizePath(N.Loc.File);
      Related.push_back(
          {{"location",
            {{"uri", lsp::pathToUri(File)},
             {"range", rangeAt(File, N.Loc.Line, N.Loc.Column)}}},
           {"message", N.Message}});
    }
    if (!Related.empty())
      D["relatedInformation"] = std::move(Related);
  } else {
    // Clients without relatedInformation still see where the notes point.
    std::string Message = F.Message;
    for (const Note &N : F.Notes)
      Message += "\n" + llvm::sys::path::filename(N.Loc.File).str() + ":" +
                 std::to_string(N.Loc.Line) + ": note: " + N.Message;
    D["message"] = Message;
  }
  return D;
}

void Server::analyzeAndPublish(const std::string &Path) {
  DriverOptions Run = Opts;
  for (const auto &[DocPath, Doc] : Docs)
    Run.Overlays[DocPath] = Doc.Text;
  std::vector<std::string> Fatal;
  AnalysisResult R = analyzeFiles({Path}, Run, &Fatal);
  for (const std::string &E : Fatal)
    message("window/showMessage", MessageError, "distlint: " + E);
  for (const FileError &E : R.Errors) {
    // Once per file on screen (e.g. a header without a compile command);
    // every time in the log.
    message("window/logMessage", MessageLog,
            "distlint: " + E.File + ": " + E.Message);
    if (normalizePath(E.File) == Path && WarnedNoCommand.insert(Path).second)
      message("window/showMessage", MessageWarning,
              "distlint: " + E.File + ": " + E.Message);
  }
  TextCache.clear();
  json Diagnostics = json::array();
  for (const Finding &F : R.Findings)
    if (normalizePath(F.Loc.File) == Path)
      Diagnostics.push_back(toDiagnostic(F, Path));
  json Params = {{"uri", lsp::pathToUri(Path)}, {"diagnostics", Diagnostics}};
  auto Doc = Docs.find(Path);
  if (Doc != Docs.end()) {
    Params["uri"] = Doc->second.Uri;
    Params["version"] = Doc->second.Version;
  }
  notify("textDocument/publishDiagnostics", std::move(Params));
}

} // namespace

int runLspServer(const DriverOptions &Base) {
  // The protocol owns stdout. Anything else that writes to fd 1 during
  // analysis (a stray printf in a library) goes to stderr instead of
  // corrupting a message.
  int ProtocolFd = dup(STDOUT_FILENO);
  FILE *Out = ProtocolFd >= 0 ? fdopen(ProtocolFd, "wb") : nullptr;
  if (!Out) {
    llvm::errs() << "distlint: error: cannot duplicate stdout for --lsp\n";
    return 2;
  }
  std::fflush(stdout);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  std::ios::sync_with_stdio(false);
  Server S(Base, Out);
  int Status = S.run(std::cin);
  std::fclose(Out);
  return Status;
}

} // namespace distlint
