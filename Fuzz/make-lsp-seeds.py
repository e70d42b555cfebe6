#!/usr/bin/env python3
"""Writes seed streams for the `lsp` fuzz target: framed sessions an editor sends to `baton lsp`."""
import json
import os
import sys

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)


def frame(message):
    body = json.dumps(message, ensure_ascii=False).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def at(uri, line, character):
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


a = "file:///tmp/baton-fuzz-lsp/a.graphql"  # the scratch project Fuzz/Targets/LanguageServer.swift writes
sessions = {
    "open-change-hover": [
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": a, "languageId": "graphql", "version": 1, "text": "query A { user(id: 1) { ...F } }\n"}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange",
         "params": {"textDocument": {"uri": a, "version": 2},
                    "contentChanges": [{"range": {"start": {"line": 0, "character": 24}, "end": {"line": 0, "character": 29}}, "text": "nmae"}]}},
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": at(a, 0, 11)},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": at(a, 0, 24)},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": at(a, 0, 28)},
    ],
    "symbols-shutdown": [
        {"jsonrpc": "2.0", "id": 1, "method": "workspace/symbol", "params": {"query": ""}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": a}}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ],
}
for name, messages in sessions.items():
    with open(os.path.join(folder, name), "wb") as out:
        out.write(b"".join(frame(m) for m in messages))
with open(os.path.join(folder, "bad-frames"), "wb") as out:
    out.write(b"Content-Length: x\r\n\r\n{}Content-Length: 3\r\n\r\n{\xff}Content-Length: 2\r\n\r\n[]")
