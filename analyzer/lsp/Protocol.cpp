//===- Protocol.cpp - LSP framing, URIs and positions ---------------------===//
#include "LspServer.h"

#include <cctype>
#include <cstdlib>
#include <istream>

namespace distlint::lsp {

bool readMessage(std::istream &In, std::string &Body) {
  long Length = -1;
  std::string Line;
  while (std::getline(In, Line)) {
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    if (Line.empty()) {
      if (Length < 0)
        return false; // Headers without Content-Length.
      Body.assign(static_cast<size_t>(Length), '\0');
      In.read(Body.data(), Length);
      return In.gcount() == Length;
    }
    const std::string Key = "content-length:";
    std::string Lower;
    for (char C : Line.substr(0, Key.size()))
      Lower += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    if (Lower == Key) {
      char *End = nullptr;
      Length = std::strtol(Line.c_str() + Key.size(), &End, 10);
      if (Length < 0 || End == Line.c_str() + Key.size())
        return false;
    }
    // Other headers (Content-Type) carry nothing we need.
  }
  return false;
}

std::string frameMessage(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

static int hexValue(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

std::string uriToPath(const std::string &Uri) {
  std::string Rest = Uri;
  const std::string Scheme = "file://";
  if (Rest.compare(0, Scheme.size(), Scheme) == 0)
    Rest = Rest.substr(Scheme.size());
  // file://host/path: only the local host is meaningful here.
  if (!Rest.empty() && Rest[0] != '/') {
    size_t Slash = Rest.find('/');
    Rest = Slash == std::string::npos ? "/" : Rest.substr(Slash);
  }
  std::string Path;
  for (size_t I = 0; I < Rest.size(); ++I) {
    if (Rest[I] == '%' && I + 2 < Rest.size() && hexValue(Rest[I + 1]) >= 0 &&
        hexValue(Rest[I + 2]) >= 0) {
      Path += static_cast<char>(hexValue(Rest[I + 1]) * 16 + hexValue(Rest[I + 2]));
      I += 2;
    } else {
      Path += Rest[I];
    }
  }
  return Path;
}

std::string pathToUri(const std::string &Path) {
  static const char *Hex = "0123456789ABCDEF";
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (std::isalnum(C) || C == '/' || C == '-' || C == '_' || C == '.' ||
        C == '~') {
      Uri += static_cast<char>(C);
    } else {
      Uri += '%';
      Uri += Hex[C >> 4];
      Uri += Hex[C & 15];
    }
  }
  return Uri;
}

unsigned utf16Character(const std::string &LineText, unsigned ByteColumn) {
  unsigned Units = 0;
  size_t End = ByteColumn > 0 ? ByteColumn - 1 : 0;
  for (size_t I = 0; I < End && I < LineText.size();) {
    unsigned char C = static_cast<unsigned char>(LineText[I]);
    size_t Len = C < 0x80 ? 1 : (C >> 5) == 0x6 ? 2 : (C >> 4) == 0xE ? 3
                 : (C >> 3) == 0x1E ? 4 : 1;
    Units += Len == 4 ? 2 : 1; // Outside the BMP: a surrogate pair.
    I += Len;
  }
  // A column past the end of the line (e.g. at the newline) keeps its offset.
  if (End > LineText.size())
    Units += static_cast<unsigned>(End - LineText.size());
  return Units;
}

} // namespace distlint::lsp
