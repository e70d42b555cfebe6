#!/usr/bin/env python3
"""A small GraphQL server of notes, for the seeded fault run (Tests/Server/faults/README.md).

It is not the server the runtime's other network tests use (Tests/Server/server.py, ariadne): graphql-core
alone on the standard library's threading HTTP/1.1 server, with keep-alive. A mutation's executions are counted
per `Idempotency-Key` header, and `GET /executions` returns the counts as JSON.

Run:  python3 notes_server.py   (prints `NOTES_SERVER_PORT=<port>`, exits when standard input closes)
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from graphql import build_schema, graphql_sync

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "schema.graphql")) as file:
    SCHEMA = build_schema(file.read())

lock = threading.Lock()
notes = {}
executions = {}


def note(_, info, id):
    with lock:
        text = notes.get(id, "note " + id)
    return {"id": id, "text": text, "words": len(text.split())}


def add_note(_, info, text):
    key = info.context.get("idempotency_key") or ""
    with lock:
        executions[key] = executions.get(key, 0) + 1
        identifier = "n%d" % (len(notes) + 1)
        notes[identifier] = text
    return {"id": identifier, "text": text, "words": len(text.split())}


ROOT = {"note": note, "addNote": add_note}


def resolve(root, info, **arguments):
    return ROOT[info.field_name](root, info, **arguments)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            self.answer(200, "ok", "text/plain")
        elif self.path == "/executions":
            with lock:
                self.answer(200, json.dumps(executions))
        else:
            self.answer(404, "{}")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            request = json.loads(self.rfile.read(length))
        except ValueError:
            return self.answer(400, json.dumps({"errors": [{"message": "the body is not JSON"}]}))
        context = {"idempotency_key": self.headers.get("Idempotency-Key")}
        result = graphql_sync(
            SCHEMA,
            request.get("query") or "",
            root_value=None,
            context_value=context,
            variable_values=request.get("variables"),
            operation_name=request.get("operationName"),
            field_resolver=lambda root, info, **arguments: (
                resolve(root, info, **arguments)
                if info.parent_type.name in ("Query", "Mutation")
                else (root or {}).get(info.field_name)
            ),
        )
        body = {"data": result.data}
        if result.errors:
            body["errors"] = [error.formatted for error in result.errors]
        self.answer(200, json.dumps(body))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("NOTES_SERVER_PORT=%d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
