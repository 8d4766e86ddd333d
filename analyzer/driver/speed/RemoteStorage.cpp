//===- RemoteStorage.cpp - HTTP and Redis clients (blocking, one socket per
//    request) ------------------------------------------------------------===//
#include "RemoteStorage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace distlint {

RemoteStorage::~RemoteStorage() = default;

namespace {
struct Endpoint {
  std::string User, Password, Host, Port, Path;
};

/// scheme://[user[:password]@]host[:port][/path]
bool parseUrl(llvm::StringRef Rest, llvm::StringRef DefaultPort, Endpoint &E,
              std::string &Error) {
  auto [Authority, Path] = Rest.split('/');
  E.Path = Path.str();
  if (Authority.contains('@')) {
    auto [Credentials, HostPort] = Authority.rsplit('@');
    Authority = HostPort;
    if (Credentials.contains(':')) {
      E.User = Credentials.split(':').first.str();
      E.Password = Credentials.split(':').second.str();
    } else {
      E.Password = Credentials.str();
    }
  }
  auto [Host, Port] = Authority.split(':');
  E.Host = Host.str();
  E.Port = Port.empty() ? DefaultPort.str() : Port.str();
  unsigned PortNumber;
  if (E.Host.empty() || llvm::StringRef(E.Port).getAsInteger(10, PortNumber)) {
    Error = "no host or a bad port";
    return false;
  }
  return true;
}

/// A connected TCP socket with 10 s timeouts, or -1.
int connectTo(const Endpoint &E) {
  addrinfo Hints{}, *Found = nullptr;
  Hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(E.Host.c_str(), E.Port.c_str(), &Hints, &Found) != 0)
    return -1;
  int Fd = -1;
  for (addrinfo *A = Found; A && Fd < 0; A = A->ai_next) {
    Fd = socket(A->ai_family, A->ai_socktype, A->ai_protocol);
    if (Fd < 0)
      continue;
    timeval Timeout{10, 0};
    setsockopt(Fd, SOL_SOCKET, SO_RCVTIMEO, &Timeout, sizeof Timeout);
    setsockopt(Fd, SOL_SOCKET, SO_SNDTIMEO, &Timeout, sizeof Timeout);
    if (connect(Fd, A->ai_addr, A->ai_addrlen) != 0) {
      close(Fd);
      Fd = -1;
    }
  }
  freeaddrinfo(Found);
  return Fd;
}

bool sendAll(int Fd, llvm::StringRef Data) {
  while (!Data.empty()) {
    ssize_t N = send(Fd, Data.data(), Data.size(), MSG_NOSIGNAL);
    if (N <= 0)
      return false;
    Data = Data.drop_front(N);
  }
  return true;
}

/// Reads until the peer closes the connection.
std::string receiveAll(int Fd) {
  std::string Out;
  char Buffer[65536];
  while (true) {
    ssize_t N = recv(Fd, Buffer, sizeof Buffer, 0);
    if (N <= 0)
      break;
    Out.append(Buffer, N);
  }
  return Out;
}

class HttpStorage : public RemoteStorage {
public:
  explicit HttpStorage(Endpoint E) : E(std::move(E)) {}

  std::optional<std::string> get(const std::string &Key) override {
    std::string Response;
    if (!request("GET", Key, "", Response))
      return std::nullopt;
    auto [Head, Body] = llvm::StringRef(Response).split("\r\n\r\n");
    if (status(Head) != 200)
      return std::nullopt;
    // Content-Length, if given, must match (a cut connection is a miss).
    for (llvm::StringRef Line : llvm::split(Head, "\r\n")) {
      auto [Name, Value] = Line.split(':');
      size_t Length;
      if (Name.trim().equals_insensitive("content-length") &&
          !Value.trim().getAsInteger(10, Length) && Length != Body.size())
        return std::nullopt;
      if (Name.trim().equals_insensitive("transfer-encoding"))
        return std::nullopt; // chunked: not produced by static servers
    }
    return Body.str();
  }

  bool put(const std::string &Key, llvm::StringRef Value) override {
    std::string Response;
    if (!request("PUT", Key, Value, Response))
      return false;
    unsigned Code = status(llvm::StringRef(Response).split("\r\n").first);
    return Code >= 200 && Code < 300;
  }

private:
  bool request(llvm::StringRef Method, const std::string &Key,
               llvm::StringRef Body, std::string &Response) {
    int Fd = connectTo(E);
    if (Fd < 0)
      return false;
    std::string Path = "/" + E.Path;
    if (Path.back() != '/')
      Path += '/';
    Path += Key;
    std::string Head = (Method + " " + Path + " HTTP/1.1\r\nHost: " + E.Host +
                        ":" + E.Port + "\r\nConnection: close\r\n")
                           .str();
    if (!E.User.empty() || !E.Password.empty())
      Head += "Authorization: Basic " +
              llvm::encodeBase64(E.User + ":" + E.Password) + "\r\n";
    if (Method == "PUT")
      Head += "Content-Type: application/octet-stream\r\nContent-Length: " +
              std::to_string(Body.size()) + "\r\n";
    Head += "\r\n";
    bool Ok = sendAll(Fd, Head) && sendAll(Fd, Body);
    if (Ok)
      Response = receiveAll(Fd);
    close(Fd);
    return Ok && !Response.empty();
  }

  static unsigned status(llvm::StringRef StatusLine) {
    // "HTTP/1.1 200 OK"
    unsigned Code = 0;
    StatusLine.split(' ').second.take_front(3).getAsInteger(10, Code);
    return Code;
  }

  Endpoint E;
};

class RedisStorage : public RemoteStorage {
public:
  explicit RedisStorage(Endpoint E) : E(std::move(E)) {}

  std::optional<std::string> get(const std::string &Key) override {
    std::string Reply;
    if (!command({"GET", "distlint:" + Key}, Reply))
      return std::nullopt;
    // "$<len>\r\n<bytes>\r\n" or "$-1\r\n" (missing)
    if (Reply.empty() || Reply[0] != '$')
      return std::nullopt;
    auto [Length, Rest] = llvm::StringRef(Reply).drop_front().split("\r\n");
    long long N;
    if (Length.getAsInteger(10, N) || N < 0 ||
        Rest.size() < static_cast<size_t>(N))
      return std::nullopt;
    return Rest.take_front(N).str();
  }

  bool put(const std::string &Key, llvm::StringRef Value) override {
    std::string Reply;
    return command({"SET", "distlint:" + Key, Value.str()}, Reply) &&
           llvm::StringRef(Reply).starts_with("+OK");
  }

private:
  static std::string encode(const std::vector<std::string> &Argv) {
    std::string Out = "*" + std::to_string(Argv.size()) + "\r\n";
    for (const std::string &A : Argv)
      Out += "$" + std::to_string(A.size()) + "\r\n" + A + "\r\n";
    return Out;
  }

  /// Runs AUTH/SELECT if configured, then Argv, then QUIT; Reply is the
  /// last command's reply.
  bool command(const std::vector<std::string> &Argv, std::string &Reply) {
    int Fd = connectTo(E);
    if (Fd < 0)
      return false;
    std::string Request;
    unsigned Skip = 0; // replies before ours
    if (!E.Password.empty()) {
      Request += E.User.empty() ? encode({"AUTH", E.Password})
                                : encode({"AUTH", E.User, E.Password});
      ++Skip;
    }
    if (!E.Path.empty()) {
      Request += encode({"SELECT", E.Path});
      ++Skip;
    }
    Request += encode(Argv) + encode({"QUIT"});
    bool Ok = sendAll(Fd, Request);
    std::string All = Ok ? receiveAll(Fd) : "";
    close(Fd);
    llvm::StringRef Rest(All);
    for (unsigned I = 0; I < Skip; ++I) {
      if (!Rest.starts_with("+OK"))
        return false;
      Rest = Rest.split("\r\n").second;
    }
    Reply = Rest.str();
    return Ok && !Reply.empty();
  }

  Endpoint E;
};
} // namespace

std::unique_ptr<RemoteStorage> openRemoteStorage(llvm::StringRef Spec,
                                                 std::string &Error) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Spec.split(Parts, '|');
  llvm::StringRef Url = Parts[0].trim();
  std::unique_ptr<RemoteStorage> Storage;
  Endpoint E;
  std::string UrlError;
  if (Url.consume_front("http://")) {
    if (parseUrl(Url, "80", E, UrlError))
      Storage = std::make_unique<HttpStorage>(E);
  } else if (Url.consume_front("redis://")) {
    if (parseUrl(Url, "6379", E, UrlError))
      Storage = std::make_unique<RedisStorage>(E);
  } else {
    Error = "--remote-storage must be an http:// or redis:// URL, not '" +
            Parts[0].trim().str() + "'";
    return nullptr;
  }
  if (!Storage) {
    Error = "--remote-storage " + Parts[0].trim().str() + ": " + UrlError;
    return nullptr;
  }
  Storage->Url = Parts[0].trim().str();
  for (llvm::StringRef Attr : llvm::ArrayRef(Parts).drop_front()) {
    Attr = Attr.trim();
    if (Attr == "read-only" || Attr == "read-only=true")
      Storage->ReadOnly = true;
    else if (!Attr.empty() && !Attr.starts_with("connect-timeout") &&
             !Attr.starts_with("operation-timeout") &&
             !Attr.starts_with("layout")) {
      Error = "--remote-storage: unknown attribute '" + Attr.str() +
              "' (known: read-only)";
      return nullptr;
    }
  }
  return Storage;
}

} // namespace distlint
