"""Baton's incremental-delivery test server: graphql-core 3.3's `experimental_execute_incrementally` over a small
HTTP/1.1 server of the standard library's asyncio, answering `@defer` and `@stream` as `multipart/mixed` in the
current draft's format (graphql-spec #1110: `pending`, `incremental`, `completed`), part by part as they resolve.

Run by Tests/BatonNetworkTests (IncrementalServer) with the virtualenv .ci/install.d/incremental-server.sh makes.
It prints `BATON_SERVER_PORT=<port>` and exits when its stdin closes.

Automatic persisted queries (a hash alone answers `PersistedQueryNotFound` until a request has sent its document);
`/_baton/log?key=K` lists the requests that carried `X-Baton-Test-Key: K`.

Faults (`X-Baton-Fault`, comma-separated):
  plain            ignore `Accept` and answer one JSON body (the directives removed), as a server without them
  truncate-after=N close the connection after N parts, without the closing boundary
  never-ends       send the first part, then nothing, the connection left open
  require-bearer=T answer 401 unless the request carries `Authorization: Bearer T`

graphql-transport-ws (a WebSocket upgrade of `GET /graphql`, subprotocol `graphql-transport-ws`, the standard
library's own RFC 6455 framing): `connection_init` is acknowledged, each `subscribe` (a query with `@defer`/`@stream`
too) is executed incrementally and answered with one `next` per payload (the initial result, then each subsequent
one) and `complete`; invalid documents get `error`. The faults and the gate of the handshake's headers apply to
every operation on the socket (`truncate-after=N` closes the socket after N `next` messages).

Gates (`X-Baton-Gate: NAME`): after the first part the server sends nothing more until the client opens the gate
(`/_baton/gate?open=NAME`, answered `{"opened": NAME, "restSent": false}`), which proves the client saw the first
payload before the rest existed on the wire; a gate not opened within 10 s ends the answer without its closing boundary.
"""

import asyncio
import base64
import hashlib
import inspect
import json
import os
import sys
from urllib.parse import parse_qs, urlsplit

from graphql import (
    GraphQLDeferDirective,
    GraphQLSchema,
    GraphQLStreamDirective,
    Visitor,
    build_schema,
    experimental_execute_incrementally,
    parse,
    specified_directives,
    validate,
    visit,
)
from graphql.language import REMOVE

HERE = os.path.dirname(os.path.abspath(__file__))
BOUNDARY = "-"

with open(os.path.join(HERE, "schema.graphql"), encoding="utf-8") as sdl:
    built = build_schema(sdl.read())
# graphql-core executes @defer and @stream only as its own directive objects.
schema = GraphQLSchema(
    query=built.query_type,
    types=list(built.type_map.values()),
    directives=[*specified_directives, GraphQLDeferDirective, GraphQLStreamDirective],
)

ISSUES = [{"id": f"I{n}", "title": title} for n, title in enumerate(["Defer it", "Stream it", "Test it"], 1)]
STARGAZERS = [{"id": f"U{n}", "login": login} for n, login in enumerate(["ada", "grace", "linus"], 1)]


def repository(_root, _info, owner, name):
    return {"id": f"{owner}/{name}", "owner": owner, "name": name, "description": "GraphQL, honestly"}


async def issues(_repository, _info, first=10):
    await asyncio.sleep(0.05)
    return ISSUES[:first]


def failing_issues(_repository, _info):
    raise Exception("issues are unavailable")


async def stargazers(_repository, _info):
    for user in STARGAZERS:
        await asyncio.sleep(0.03)
        yield user


schema.query_type.fields["repository"].resolve = repository
repository_type = schema.type_map["Repository"]
repository_type.fields["issues"].resolve = issues
repository_type.fields["failingIssues"].resolve = failing_issues
repository_type.fields["stargazers"].resolve = stargazers


class WithoutIncrementalDirectives(Visitor):
    """Removes @defer and @stream: what a server that knows neither answers."""

    def enter_directive(self, node, *_):
        return REMOVE if node.name.value in ("defer", "stream") else None


# Automatic persisted queries (Apollo's protocol, version 1): documents by their SHA-256, learnt when a request
# carries both; the requests seen, by `X-Baton-Test-Key`, for `/_baton/log` (the main server's format).
persisted = {}
requests_seen = []
# Gates by name (`X-Baton-Gate`), made by whichever side comes first: the answer waiting or the client opening it.
gates = {}
GATE_TIMEOUT = 10


def gate(name):
    return gates.setdefault(name, asyncio.Event())


async def pass_gate(headers):
    """Waits for the request's gate, if it names one; False when it was not opened in time."""
    name = headers.get("x-baton-gate")
    if not name:
        return True
    try:
        await asyncio.wait_for(gate(name).wait(), GATE_TIMEOUT)
        return True
    except asyncio.TimeoutError:
        return False


def persisted_document(request):
    """The request's document: its own (learnt under its hash), or the one its hash names; None when unknown."""
    extension = (request.get("extensions") or {}).get("persistedQuery") or {}
    digest = extension.get("sha256Hash")
    query = request.get("query")
    if query:
        if digest and hashlib.sha256(query.encode()).hexdigest() == digest:
            persisted[digest] = query
        return query
    return persisted.get(digest)


def faults(headers):
    result = {}
    for item in headers.get("x-baton-fault", "").split(","):
        name, _, value = item.strip().partition("=")
        if name:
            result[name] = value
    return result


async def read_request(reader):
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return method, target, headers, body


def response_head(status, content_type, length=None):
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nConnection: close\r\n"
    if length is not None:
        head += f"Content-Length: {length}\r\n"
    return (head + "\r\n").encode()


async def answer_json(writer, status, value):
    body = json.dumps(value).encode()
    writer.write(response_head(status, "application/json", len(body)) + body)
    await writer.drain()


def part(payload):
    """One part, its delimiter right after it (as Apollo Router and graphql-yoga send them): a client knows the part
    is whole as soon as it has come, not only when the next one starts."""
    return f"\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{json.dumps(payload)}\r\n--{BOUNDARY}".encode()


WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


async def read_frame(reader):
    """One WebSocket frame from the client (masked, unfragmented): (opcode, payload bytes)."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        length = int.from_bytes(await reader.readexactly(2), "big")
    elif length == 127:
        length = int.from_bytes(await reader.readexactly(8), "big")
    mask = await reader.readexactly(4) if second & 0x80 else b"\0\0\0\0"
    payload = await reader.readexactly(length)
    return first & 0x0F, bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def frame(opcode, payload):
    """One unmasked WebSocket frame from the server."""
    length = len(payload)
    if length < 126:
        head = bytes([0x80 | opcode, length])
    elif length < 65536:
        head = bytes([0x80 | opcode, 126]) + length.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 127]) + length.to_bytes(8, "big")
    return head + payload


async def serve_websocket(reader, writer, headers):
    """graphql-transport-ws: each `subscribe` executed incrementally, a `next` per payload, then `complete`."""
    accept = base64.b64encode(hashlib.sha1((headers["sec-websocket-key"] + WEBSOCKET_GUID).encode()).digest())
    writer.write(
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Protocol: graphql-transport-ws\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    await writer.drain()
    fault = faults(headers)
    limit = int(fault["truncate-after"]) if "truncate-after" in fault else None
    running = {}
    sent = 0

    async def send(message):
        nonlocal sent
        if message.get("type") == "next":
            if limit is not None and sent >= limit:
                writer.close()
                raise ConnectionError("truncated")
            sent += 1
        writer.write(frame(0x1, json.dumps(message).encode()))
        await writer.drain()

    async def execute(operation_id, request):
        requests_seen.append({
            "key": headers.get("x-baton-test-key"), "method": "WS", "operationName": request.get("operationName"),
            "hasQuery": bool(request.get("query")), "persistedId": None,
            "authorization": headers.get("authorization"), "onError": request.get("onError")})
        document = parse(request.get("query") or "")
        errors = validate(schema, document)
        if errors:
            await send({"id": operation_id, "type": "error", "payload": [error.formatted for error in errors]})
            return
        result = experimental_execute_incrementally(
            schema, document, variable_values=request.get("variables") or {})
        if inspect.isawaitable(result):
            result = await result
        if not hasattr(result, "initial_result"):
            await send({"id": operation_id, "type": "next", "payload": result.formatted})
        else:
            await send({"id": operation_id, "type": "next", "payload": result.initial_result.formatted})
            if not await pass_gate(headers):
                writer.close()
                return
            async for subsequent in result.subsequent_results:
                await send({"id": operation_id, "type": "next", "payload": subsequent.formatted})
        await send({"id": operation_id, "type": "complete"})

    try:
        while True:
            opcode, payload = await read_frame(reader)
            if opcode == 0x8:
                writer.write(frame(0x8, payload[:2]))
                await writer.drain()
                return
            if opcode == 0x9:
                writer.write(frame(0xA, payload))
                continue
            if opcode != 0x1:
                continue
            message = json.loads(payload)
            kind = message.get("type")
            if kind == "connection_init":
                await send({"type": "connection_ack"})
            elif kind == "ping":
                await send({"type": "pong"})
            elif kind == "subscribe":
                operation_id = message["id"]
                running[operation_id] = asyncio.ensure_future(execute(operation_id, message.get("payload") or {}))
            elif kind == "complete":
                task = running.pop(message.get("id"), None)
                if task is not None:
                    task.cancel()
    finally:
        for task in running.values():
            task.cancel()


async def handle(reader, writer):
    try:
        method, target, headers, body = await read_request(reader)
        if headers.get("upgrade", "").lower() == "websocket":
            await serve_websocket(reader, writer, headers)
            return
        if target.startswith("/_baton/health"):
            writer.write(response_head("200 OK", "text/plain", 2) + b"ok")
            await writer.drain()
            return
        if target.startswith("/_baton/gate"):
            name = parse_qs(urlsplit(target).query).get("open", [""])[0]
            gate(name).set()
            await answer_json(writer, "200 OK", {"opened": name, "restSent": False})
            return
        if target.startswith("/_baton/log"):
            key = parse_qs(urlsplit(target).query).get("key", [None])[0]
            await answer_json(writer, "200 OK", [seen for seen in requests_seen if seen["key"] == key])
            return
        if method != "POST" or not target.startswith("/graphql"):
            await answer_json(writer, "404 Not Found", {"errors": [{"message": "POST /graphql"}]})
            return
        request = json.loads(body or b"{}")
        fault = faults(headers)
        persisted_id = ((request.get("extensions") or {}).get("persistedQuery") or {}).get("sha256Hash")
        requests_seen.append({
            "key": headers.get("x-baton-test-key"), "method": method, "operationName": request.get("operationName"),
            "hasQuery": bool(request.get("query")), "persistedId": persisted_id,
            "authorization": headers.get("authorization"), "onError": request.get("onError")})
        if "require-bearer" in fault and headers.get("authorization") != f"Bearer {fault['require-bearer']}":
            writer.write(response_head("401 Unauthorized", "text/plain", 12) + b"unauthorized")
            await writer.drain()
            return
        query = persisted_document(request)
        if query is None:
            await answer_json(writer, "200 OK", {"errors": [
                {"message": "PersistedQueryNotFound", "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}]})
            return
        document = parse(query)
        errors = validate(schema, document)
        if errors:
            await answer_json(writer, "200 OK", {"errors": [error.formatted for error in errors]})
            return
        variables = request.get("variables") or {}
        accepts_multipart = "multipart/mixed" in headers.get("accept", "")
        if "plain" in fault or not accepts_multipart:
            # Without its directives nothing is incremental: the experimental executor answers one result.
            result = experimental_execute_incrementally(
                schema, visit(document, WithoutIncrementalDirectives()), variable_values=variables)
            if inspect.isawaitable(result):
                result = await result
            await answer_json(writer, "200 OK", result.formatted)
            return
        result = experimental_execute_incrementally(schema, document, variable_values=variables)
        if inspect.isawaitable(result):
            result = await result
        if not hasattr(result, "initial_result"):
            await answer_json(writer, "200 OK", result.formatted)
            return
        writer.write(response_head("200 OK", f'multipart/mixed; boundary="{BOUNDARY}"'))
        writer.write(f"\r\n--{BOUNDARY}".encode() + part(result.initial_result.formatted))
        await writer.drain()
        if "never-ends" in fault:
            await asyncio.sleep(3600)
        if not await pass_gate(headers):
            return
        limit = int(fault["truncate-after"]) if "truncate-after" in fault else None
        sent = 1
        async for subsequent in result.subsequent_results:
            if limit is not None and sent >= limit:
                return
            writer.write(part(subsequent.formatted))
            await writer.drain()
            sent += 1
        # The last part's delimiter becomes the closing one.
        writer.write(b"--\r\n")
        await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"BATON_SERVER_PORT={port}", flush=True)
    loop = asyncio.get_running_loop()
    # Exit when the test process's end of stdin closes.
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    if "--print-schema" in sys.argv:
        print(schema.query_type.name)
        sys.exit(0)
    asyncio.run(main())
