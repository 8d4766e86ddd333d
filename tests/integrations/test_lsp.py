#!/usr/bin/env python3
"""`distlint --lsp` speaks LSP over stdio and publishes the expected finding.

Starts the real binary with a compile database made for
inputs/lsp_divergent.cpp, then as an editor would:
  initialize (rootUri, relatedInformation capability) / initialized;
  didOpen -> publishDiagnostics with the `// expect:` finding (rule as code,
      0-based line) and the `// expect-note:` note as relatedInformation;
  didChange removing the defect (unsaved, so nothing is published);
  didSave -> analysis of the editor's text: the finding is gone;
  a malformed message -> ParseError, still serving;
  an unknown request -> MethodNotFound; shutdown / exit -> status 0.
"""
import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distlint_testlib as lib  # noqa: E402

INPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs",
                     "lsp_divergent.cpp")
TIMEOUT = 120


class Client:
    def __init__(self, cmd, cwd):
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._reader, daemon=True).start()
        threading.Thread(target=self._stderr, daemon=True).start()
        self.stderr = []

    def _stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def _reader(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                self.inbox.put({"protocol-error": "message without Content-Length"})
                return
            self.inbox.put(json.loads(out.read(length)))

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m,
                         "response to " + method)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def wait(self, pred, what):
        seen = []
        while True:
            try:
                msg = self.inbox.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError("timed out waiting for %s; got %s" % (what, seen))
            if msg is None:
                raise AssertionError("server closed stdout waiting for %s; got %s\n%s"
                                     % (what, seen, "".join(self.stderr)))
            if "protocol-error" in msg:
                raise AssertionError(msg["protocol-error"])
            if pred(msg):
                return msg
            seen.append(msg)


def uri(path):
    return "file://" + urllib.parse.quote(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--distlint", required=True)
    args = ap.parse_args()
    args.distlint = os.path.realpath(args.distlint)

    text = open(INPUT).read()
    expected, expected_notes = lib.expectations(INPUT)
    assert len(expected) == 1, expected
    want_line, want_rule = expected[0]

    # A workspace whose path needs percent-encoding, with the database in
    # build/ (found from the workspace root, as without -p on the CLI).
    tmp = tempfile.mkdtemp(prefix="distlint lsp ")
    try:
        ws = os.path.join(tmp, "work space")
        os.makedirs(os.path.join(ws, "build"))
        src = os.path.join(ws, "train.cpp")
        shutil.copy(INPUT, src)
        with open(os.path.join(ws, "build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": ws, "file": src,
                        "arguments": ["c++", "-std=c++17", "-I" + os.path.join(
                            lib.REPO, "testdata", "include"), "-c", src]}], f)

        client = Client([args.distlint, "--lsp"], cwd=tmp)
        result = client.request("initialize", {
            "processId": os.getpid(), "rootUri": uri(ws),
            "capabilities": {"textDocument": {"publishDiagnostics": {
                "relatedInformation": True}}}})["result"]
        sync = result["capabilities"]["textDocumentSync"]
        assert sync["openClose"] and sync["change"] == 1, result
        assert result["serverInfo"]["name"] == "distlint", result
        client.notify("initialized", {})

        doc = {"uri": uri(src), "languageId": "cpp", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": doc})
        pub = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics",
                          "publishDiagnostics after didOpen")["params"]
        assert pub["uri"] == doc["uri"], pub
        diags = pub["diagnostics"]
        print("didOpen: %d diagnostic(s): %s" % (len(diags), json.dumps(diags)))
        hits = [d for d in diags if d["code"] == want_rule
                and d["range"]["start"]["line"] == want_line - 1]
        assert len(hits) == 1, "expected %s at line %d, got %s" % (want_rule, want_line, diags)
        assert len(diags) == 1, "unexpected extra diagnostics: %s" % diags
        d = hits[0]
        assert d["source"] == "distlint" and d["severity"] == 2, d
        line_text = text.splitlines()[want_line - 1]
        start = d["range"]["start"]["character"]
        assert line_text[start:].startswith("MPI_Barrier"), (line_text, d["range"])
        for note_line, note_text in expected_notes:
            related = [r for r in d.get("relatedInformation", [])
                       if r["location"]["range"]["start"]["line"] == note_line - 1
                       and note_text in r["message"]
                       and r["location"]["uri"] == doc["uri"]]
            assert related, "note '%s' at line %d missing: %s" % (note_text, note_line, d)
        print("ok: %s at line %d with %d related note(s)"
              % (want_rule, want_line, len(d.get("relatedInformation", []))))

        # Unsaved edit: nothing published; the save analyzes the editor text
        # (the file on disk still has the defect).
        fixed = text.replace("  if (rank == 0) // expect-note: rank\n", "")
        fixed = fixed.replace("// expect: " + want_rule, "")
        assert fixed != text
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": doc["uri"], "version": 2},
            "contentChanges": [{"text": fixed}]})
        client.notify("textDocument/didSave", {"textDocument": {"uri": doc["uri"]}})
        pub = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics",
                          "publishDiagnostics after didSave")["params"]
        assert pub["diagnostics"] == [] and pub.get("version") == 2, pub
        print("ok: after the fix (editor text, not the disk) no diagnostics")

        # A malformed message is answered and the server keeps serving.
        client.proc.stdin.write(b"Content-Length: 9\r\n\r\n{not json")
        client.proc.stdin.flush()
        err = client.wait(lambda m: "error" in m and m.get("id") is None,
                          "parse error response")
        assert err["error"]["code"] == -32700, err

        err = client.request("textDocument/hover", {
            "textDocument": {"uri": doc["uri"]}, "position": {"line": 0, "character": 0}})
        assert err["error"]["code"] == -32601, err
        assert client.request("shutdown", None).get("result", "x") is None
        client.notify("exit", None)
        rc = client.proc.wait(timeout=TIMEOUT)
        assert rc == 0, "exit status %d" % rc
        print("ok: shutdown/exit, status 0")
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
