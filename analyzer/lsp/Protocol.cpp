//===- Protocol.cpp - LSP framing, URIs and positions ---------------------===//
#include "LspServer.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <istream>

namespace distlint::lsp {

namespace {
/// Reads one header line (without "\r\n") of at most MaxHeaderLine bytes.
/// Returns false at end of input; Overlong is set when the line was cut.
bool readHeaderLine(std::istream &In, std::string &Line, bool &Overlong) {
  Line.clear();
  Overlong = false;
  int C;
  while ((C = In.get()) != std::char_traits<char>::eof()) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    if (Line.size() < MaxHeaderLine)
      Line += static_cast<char>(C);
    else
      Overlong = true;
  }
  return false;
}

/// Parses the decimal value of Content-Length; rejects signs, junk and
/// values that do not fit in 64 bits.
bool parseLength(const std::string &Text, unsigned long long &Out) {
  size_t I = 0;
  while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
    ++I;
  size_t Digits = 0;
  Out = 0;
  for (; I < Text.size() && std::isdigit(static_cast<unsigned char>(Text[I]));
       ++I, ++Digits) {
    unsigned D = static_cast<unsigned>(Text[I] - '0');
    if (Out > (~0ull - D) / 10)
      return false;
    Out = Out * 10 + D;
  }
  while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
    ++I;
  return Digits > 0 && I == Text.size();
}
} // namespace

ReadStatus readMessage(std::istream &In, std::string &Body,
                       unsigned long long &Length, size_t MaxBytes) {
  Body.clear();
  Length = 0;
  bool HaveLength = false, Malformed = false, AnyHeader = false;
  std::string Line;
  bool Overlong;
  unsigned Headers = 0;
  while (readHeaderLine(In, Line, Overlong)) {
    if (Line.empty() && !Overlong) {
      if (!AnyHeader)
        continue; // Blank lines between messages.
      if (Malformed || !HaveLength)
        return ReadStatus::BadHeader;
      if (Length > MaxBytes) {
        // Skip the body so the next message is found; nothing is allocated.
        char Sink[65536];
        unsigned long long Left = Length;
        while (Left > 0 && In) {
          In.read(Sink, static_cast<std::streamsize>(
                            std::min<unsigned long long>(Left, sizeof(Sink))));
          Left -= static_cast<unsigned long long>(In.gcount());
        }
        return ReadStatus::TooLarge;
      }
      // Grow with what really arrives, not with what the header claims.
      char Chunk[65536];
      unsigned long long Left = Length;
      while (Left > 0) {
        In.read(Chunk, static_cast<std::streamsize>(
                           std::min<unsigned long long>(Left, sizeof(Chunk))));
        std::streamsize Got = In.gcount();
        if (Got <= 0)
          return ReadStatus::EndOfInput; // Truncated body.
        Body.append(Chunk, static_cast<size_t>(Got));
        Left -= static_cast<unsigned long long>(Got);
      }
      return ReadStatus::Message;
    }
    AnyHeader = true;
    if (Overlong || ++Headers > MaxHeaderLines) {
      Malformed = true;
      continue;
    }
    const std::string Key = "content-length:";
    std::string Lower;
    for (char C : Line.substr(0, Key.size()))
      Lower += static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
    if (Lower == Key) {
      if (!parseLength(Line.substr(Key.size()), Length))
        Malformed = true;
      else
        HaveLength = true;
    }
    // Other headers (Content-Type) carry nothing we need.
  }
  return ReadStatus::EndOfInput;
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
