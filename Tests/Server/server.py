#!/usr/bin/env python3
"""Baton's test GraphQL server: ariadne on uvicorn, with faults injected per request.

Run:  python3 Tests/Server/server.py [--port 0] [--manifest persisted-queries.json]
It listens on 127.0.0.1 (a free port unless --port says otherwise), prints one line
`BATON_SERVER_PORT=<port>` when it answers, and exits when its standard input closes or on SIGTERM.
Tests/Server/README.md documents the endpoints and the fault syntax.
"""

import argparse
import asyncio
import hashlib
import json
import os
import signal
import socket
import sys
import threading
import time
from urllib.parse import parse_qs

from ariadne import (
    EnumType,
    InterfaceType,
    MutationType,
    ObjectType,
    QueryType,
    ScalarType,
    SubscriptionType,
    load_schema_from_path,
    make_executable_schema,
)
from ariadne.asgi import GraphQL
from ariadne.asgi.handlers import GraphQLHTTPHandler, GraphQLTransportWSHandler
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
import uvicorn

HERE = os.path.dirname(os.path.abspath(__file__))
CHARACTERS = 500
LOCATIONS = 40
EPISODES = 60
SPECIES = ["Human", "Alien", "Robot", "Cronenberg", "Animal"]
STATUSES = ["ALIVE", "DEAD", "UNKNOWN"]
EPOCH = 1_700_000_000

# ---------------------------------------------------------------------------------------------
# The world: generated from ids, so every run serves the same data (renames live in `renamed`).

renamed = {}
subscribers = []  # asyncio.Queue per characterRenamed subscription


def character(i):
    if i < 1 or i > 100_000:
        return None
    return {"id": str(i), "__typename": "Character"}


def character_name(i):
    return renamed.get(str(i), f"Character {i}")


def location(i):
    if i < 1 or i > LOCATIONS:
        return None
    return {"id": str(i), "__typename": "Location"}


def episode(i):
    if i < 1 or i > EPISODES:
        return None
    return {"id": str(i), "__typename": "Episode"}


query = QueryType()
mutation = MutationType()
subscription = SubscriptionType()
character_type = ObjectType("Character")
location_type = ObjectType("Location")
episode_type = ObjectType("Episode")
node_type = InterfaceType("Node")
status_type = EnumType("Status", {name: name for name in STATUSES})
datetime_type = ScalarType("DateTime")


@datetime_type.serializer
def serialize_datetime(value):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(value))


@node_type.type_resolver
def resolve_node_type(obj, *_):
    return obj["__typename"]


def number(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@query.field("character")
def resolve_character(*_, id):
    index = number(id)
    return character(index) if 1 <= index <= CHARACTERS else None


@query.field("characters")
def resolve_characters(*_, first=10, after=None, filter=None):
    start = number(after) + 1 if after else 1
    first = max(0, min(first or 0, 100_000))
    total = 100_000 if first > CHARACTERS else CHARACTERS
    edges = []
    i = start
    while len(edges) < first and i <= total:
        node = character(i)
        keep = True
        if filter:
            if filter.get("status") and STATUSES[i % 3] != filter["status"]:
                keep = False
            if filter.get("species") and SPECIES[i % 5] != filter["species"]:
                keep = False
        if keep:
            edges.append({"cursor": str(i), "node": node})
        i += 1
    return {
        "edges": edges,
        "pageInfo": {"hasNextPage": i <= total, "endCursor": edges[-1]["cursor"] if edges else None},
        "totalCount": total,
    }


@query.field("location")
def resolve_location(*_, id):
    return location(number(id))


@query.field("episode")
def resolve_episode(*_, id):
    return episode(number(id))


@query.field("node")
def resolve_node(*_, id):
    kind, _, raw = id.partition(":")
    return {"Character": character, "Location": location, "Episode": episode}.get(kind, lambda _: None)(number(raw))


@query.field("now")
def resolve_now(*_):
    return time.time()


@query.field("oldest")
def resolve_oldest(*_, limit=None):
    return character(1)


@character_type.field("name")
def resolve_character_name(obj, *_):
    return character_name(obj["id"])


@character_type.field("status")
def resolve_character_status(obj, *_):
    return STATUSES[number(obj["id"]) % 3]


@character_type.field("species")
def resolve_character_species(obj, *_):
    return SPECIES[number(obj["id"]) % 5]


@character_type.field("origin")
def resolve_character_origin(obj, *_):
    return location(number(obj["id"]) % LOCATIONS + 1)


@character_type.field("location")
def resolve_character_location(obj, *_):
    return location((number(obj["id"]) * 7) % LOCATIONS + 1)


@character_type.field("episodes")
def resolve_character_episodes(obj, *_, first=10):
    i = number(obj["id"])
    return [episode((i + k) % EPISODES + 1) for k in range(min(max(first, 0), 3))]


@character_type.field("createdAt")
def resolve_character_created(obj, *_):
    return EPOCH + number(obj["id"]) * 3600


@location_type.field("name")
def resolve_location_name(obj, *_):
    return f"Location {obj['id']}"


@location_type.field("dimension")
def resolve_location_dimension(obj, *_):
    return None if number(obj["id"]) % 4 == 0 else f"Dimension C-{obj['id']}"


@location_type.field("residents")
def resolve_location_residents(obj, *_, first=10):
    i = number(obj["id"])
    return [character(j) for j in range(i, CHARACTERS + 1, LOCATIONS)][: max(first, 0)]


@episode_type.field("name")
def resolve_episode_name(obj, *_):
    return f"Episode {obj['id']}"


@episode_type.field("code")
def resolve_episode_code(obj, *_):
    i = number(obj["id"])
    return f"S{(i - 1) // 10 + 1:02d}E{(i - 1) % 10 + 1:02d}"


@episode_type.field("airDate")
def resolve_episode_air_date(obj, *_):
    return None


@mutation.field("renameCharacter")
async def resolve_rename(*_, id, name):
    if not 1 <= number(id) <= CHARACTERS:
        return None
    renamed[id] = name
    for queue in list(subscribers):
        queue.put_nowait(id)
    return character(number(id))


@subscription.source("ticks")
async def ticks_source(*_, count, intervalMs=10):
    for n in range(1, count + 1):
        await asyncio.sleep(max(intervalMs, 0) / 1000)
        yield {"n": n, "at": time.time()}


@subscription.field("ticks")
def ticks_resolver(tick, *_, **__):
    return tick


@subscription.source("characterRenamed")
async def renamed_source(*_, id=None):
    queue = asyncio.Queue()
    subscribers.append(queue)
    try:
        while True:
            changed = await queue.get()
            if id is None or changed == id:
                yield character(number(changed))
    finally:
        subscribers.remove(queue)


@subscription.field("characterRenamed")
def renamed_resolver(value, *_, **__):
    return value


schema = make_executable_schema(
    load_schema_from_path(os.path.join(HERE, "schema.graphql")),
    query,
    mutation,
    subscription,
    character_type,
    location_type,
    episode_type,
    node_type,
    status_type,
    datetime_type,
)

# ---------------------------------------------------------------------------------------------
# Faults: `X-Baton-Fault: delay=50,status=502` (or `?fault=` on the URL), comma-separated.


class Fault:
    """One request's fault, parsed from the header or the query parameter."""

    KEYS = {
        "delay", "status", "retry-after", "body", "size", "field-error", "close",
        "drop-after", "times", "key", "auth", "refuse-introspection", "cache", "old-spec",
    }

    def __init__(self, text):
        self.values = {}
        for part in filter(None, (p.strip() for p in (text or "").split(","))):
            name, _, value = part.partition("=")
            if name not in Fault.KEYS:
                raise ValueError(f"unknown fault {name!r}; known: {', '.join(sorted(Fault.KEYS))}")
            self.values[name] = value

    def get(self, name, default=None):
        return self.values.get(name, default)

    def __bool__(self):
        return bool(self.values)


fault_counts = {}
request_log = []


def fault_applies(fault):
    """`times=N,key=K`: the fault applies to the first N requests carrying key K, then requests pass."""
    if fault.get("times") is None:
        return True
    key = fault.get("key", "")
    fault_counts[key] = fault_counts.get(key, 0) + 1
    return fault_counts[key] <= number(fault.get("times"))


def fault_text(headers, query_string):
    text = headers.get("x-baton-fault")
    if text is None:
        text = parse_qs(query_string).get("fault", [None])[0]
    return text


def transport_of(send):
    """The asyncio transport under uvicorn's ASGI `send` (to close a connection without a response)."""
    owner = getattr(send, "__self__", None)
    return getattr(owner, "transport", None)


# ---------------------------------------------------------------------------------------------
# Persisted queries: ids from --manifest (persisted only) and automatic persisted queries (APQ).

persisted = {}


def load_manifest(path):
    with open(path, encoding="utf-8") as handle:
        manifest = json.load(handle)
    if manifest.get("format") != "apollo-persisted-query-manifest" or manifest.get("version") != 1:
        raise ValueError(f"{path}: not an apollo-persisted-query-manifest, version 1")
    for operation in manifest["operations"]:
        persisted[operation["id"]] = operation["body"]


def persisted_error(message, code):
    return JSONResponse({"errors": [{"message": message, "extensions": {"code": code}}]}, status_code=200)


class Handler(GraphQLHTTPHandler):
    """ariadne's HTTP handler, reading GET (also with only a persisted id) and POST alike."""

    async def handle_request_override(self, request: Request):
        if request.method not in ("GET", "POST"):
            return None
        if request.method == "GET":
            params = request.query_params
            data = {"query": params.get("query"), "operationName": params.get("operationName"),
                    "onError": params.get("onError")}
            for name in ("variables", "extensions"):
                if params.get(name):
                    try:
                        data[name] = json.loads(params[name])
                    except ValueError:
                        return PlainTextResponse(f"{name} is not JSON", status_code=400)
        else:
            try:
                data = json.loads(await request.body())
            except ValueError:
                return PlainTextResponse("the body is not JSON", status_code=400)
            if not isinstance(data, dict):
                return PlainTextResponse("the body is not a JSON object", status_code=400)
        extensions = data.get("extensions") or {}
        hash_ = (extensions.get("persistedQuery") or {}).get("sha256Hash")
        request.state.log_entry.update({
            "operationName": data.get("operationName"),
            "hasQuery": bool(data.get("query")),
            "persistedId": hash_,
            "onError": data.get("onError"),
        })
        if hash_:
            if data.get("query"):
                if hashlib.sha256(data["query"].encode()).hexdigest() != hash_:
                    return persisted_error("provided sha does not match query", "BAD_REQUEST")
                persisted[hash_] = data["query"]
            elif hash_ in persisted:
                data["query"] = persisted[hash_]
            else:
                return persisted_error("PersistedQueryNotFound", "PERSISTED_QUERY_NOT_FOUND")
        if not data.get("query"):
            return PlainTextResponse("no query", status_code=400)
        if request.method == "GET" and data["query"].lstrip().startswith("mutation"):
            return PlainTextResponse("mutations only over POST", status_code=405)
        fault = request.state.fault
        if fault.get("refuse-introspection") is not None and "__schema" in data["query"]:
            return JSONResponse({"errors": [{"message": "GraphQL introspection is not allowed"}]}, status_code=400)
        if fault.get("old-spec") is not None and "isOneOf" in data["query"]:
            # graphql-js 16's answer: its __Type has no isOneOf.
            message = 'Cannot query field "isOneOf" on type "__Type".'
            return JSONResponse({"errors": [{"message": message}]}, status_code=400)
        success, result = await self.execute_graphql_query(request, data)
        return await self.create_json_response(request, result, success)


def field_error_middleware(resolver, obj, info, **args):
    fault = info.context["request"].state.fault if hasattr(info.context["request"], "state") else None
    path = fault.get("field-error") if fault else None
    if path is not None and ".".join(str(p) for p in info.path.as_list()) == path:
        raise Exception(f"injected field error at {path}")
    return resolver(obj, info, **args)


def on_connect(websocket, payload):
    """connection_init: a payload `{"token": "…"}` is kept; `{"reject": true}` refuses the connection."""
    if isinstance(payload, dict) and payload.get("reject"):
        raise Exception("connection refused by payload")


# Parsing and validating the same few documents thousands of times is most of a request's cost in Python:
# both are kept per document text (the schema never changes while the server runs).
parsed_documents = {}
validation_results = {}


def cached_parse(context, data):
    from graphql import parse
    text = data["query"]
    if text not in parsed_documents:
        if len(parsed_documents) > 1000:
            parsed_documents.clear()
        parsed_documents[text] = parse(text)
    return parsed_documents[text]


def cached_validate(schema, document_ast, rules=None, max_errors=None, type_info=None):
    from graphql import validate
    key = id(document_ast)
    if key not in validation_results or validation_results[key][0] is not document_ast:
        validation_results[key] = (document_ast, validate(schema, document_ast, rules, max_errors, type_info))
    return validation_results[key][1]


graphql_app = GraphQL(
    schema,
    query_parser=cached_parse,
    query_validator=cached_validate,
    http_handler=Handler(middleware=[field_error_middleware]),
    websocket_handler=GraphQLTransportWSHandler(on_connect=on_connect),
    debug=False,
)

# ---------------------------------------------------------------------------------------------
# The ASGI app: faults around ariadne, and /_baton/log.

response_cache = {}


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        return await graphql_app(scope, receive, send)
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    try:
        fault = Fault(fault_text(headers, scope.get("query_string", b"").decode("latin-1")))
    except ValueError as error:
        if scope["type"] == "http":
            return await PlainTextResponse(str(error), status_code=400)(scope, receive, send)
        return None
    if fault and not fault_applies(fault):
        fault = Fault("")
    scope.setdefault("state", {})["fault"] = fault

    if scope["type"] == "websocket":
        return await websocket_with_faults(scope, receive, send, fault)

    transport = transport_of(send)
    if transport is not None and not getattr(transport, "_baton_nodelay", False):
        # uvicorn writes the head and the body separately: without TCP_NODELAY, Nagle's algorithm and the
        # client's delayed ACK add 40 ms to every keep-alive request.
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        transport._baton_nodelay = True
    path = scope.get("path", "/")
    if path == "/_baton/log":
        return await log_endpoint(scope, receive, send)
    if path == "/_baton/subscribers":
        return await PlainTextResponse(str(len(subscribers)))(scope, receive, send)
    if path == "/_baton/health":
        return await PlainTextResponse("ok")(scope, receive, send)

    entry = {"key": headers.get("x-baton-test-key"), "method": scope.get("method"), "operationName": None,
             "hasQuery": False, "persistedId": None, "authorization": headers.get("authorization"),
             "onError": None, "fault": bool(fault)}
    request_log.append(entry)
    scope["state"]["log_entry"] = entry
    if fault.get("delay"):
        await asyncio.sleep(number(fault.get("delay")) / 1000)
    if fault.get("close") == "before":
        transport = transport_of(send)
        if transport is not None:
            transport.abort()
            return None
    if fault.get("auth") is not None and headers.get("authorization") != f"Bearer {fault.get('auth')}":
        return await PlainTextResponse("unauthorized", status_code=401)(scope, receive, send)
    status = number(fault.get("status"))
    if status == 429:
        retry = fault.get("retry-after", "1")
        return await PlainTextResponse("slow down", 429, headers={"Retry-After": retry})(scope, receive, send)
    if status == 502:
        html = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
        return await Response(html, 502, media_type="text/html")(scope, receive, send)
    if status >= 400 and fault.get("body") != "graphql":
        return await PlainTextResponse(f"status {status}", status)(scope, receive, send)
    if status >= 400:
        body = {"errors": [{"message": f"injected request error with status {status}"}]}
        return await JSONResponse(body, status)(scope, receive, send)
    if fault.get("body") == "errors":
        body = {"errors": [{"message": "injected request error", "extensions": {"code": "INJECTED"}}]}
        return await JSONResponse(body)(scope, receive, send)
    if fault.get("body") == "malformed":
        return await Response(b'{"data": {"character": {"id": "1", "name": ]', media_type="application/json")(
            scope, receive, send)
    if fault.get("size"):
        return await huge_body(send, number(fault.get("size")))

    # The real answer, captured so `truncate`, `close=mid` and `cache` can act on its bytes.
    captured = {"start": None, "body": b""}

    async def capture(message):
        if message["type"] == "http.response.start":
            captured["start"] = message
        elif message["type"] == "http.response.body":
            captured["body"] += message.get("body", b"")

    cache_key = None
    if fault.get("cache") is not None:
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        cache_key = (scope.get("query_string"), body)
        if cache_key in response_cache:
            start, payload = response_cache[cache_key]
            await send(start)
            return await send({"type": "http.response.body", "body": payload})
        replay = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive_again():
            return replay.pop() if replay else await receive()

        await graphql_app(scope, receive_again, capture)
    else:
        await graphql_app(scope, receive, capture)
    start, payload = captured["start"], captured["body"]
    if cache_key is not None:
        response_cache[cache_key] = (start, payload)
    if fault.get("body") == "truncate" or fault.get("close") == "mid":
        transport = transport_of(send)
        head = f"HTTP/1.1 {start['status']} OK\r\ncontent-type: application/json\r\n"
        head += f"content-length: {len(payload)}\r\n\r\n"
        if transport is not None:
            transport.write(head.encode() + payload[: len(payload) // 2])
            transport.close()
            return None
    await send(start)
    await send({"type": "http.response.body", "body": payload})


async def huge_body(send, size):
    """A valid GraphQL response of `size` bytes, streamed a megabyte at a time."""
    prefix = b'{"data":{"__typename":"Query"},"extensions":{"padding":"'
    suffix = b'"}}'
    padding = max(size - len(prefix) - len(suffix), 0)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(prefix) + padding + len(suffix)).encode())]})
    await send({"type": "http.response.body", "body": prefix, "more_body": True})
    chunk = b"x" * (1 << 20)
    while padding > 0:
        piece = chunk[: min(padding, len(chunk))]
        padding -= len(piece)
        await send({"type": "http.response.body", "body": piece, "more_body": True})
    await send({"type": "http.response.body", "body": suffix})


async def log_endpoint(scope, receive, send):
    """GET /_baton/log?key=K: the requests that carried `X-Baton-Test-Key: K`; DELETE clears the log."""
    if scope["method"] == "DELETE":
        request_log.clear()
        fault_counts.clear()
        return await PlainTextResponse("cleared")(scope, receive, send)
    key = parse_qs(scope.get("query_string", b"").decode()).get("key", [None])[0]
    entries = [entry for entry in request_log if key is None or entry["key"] == key]
    return await JSONResponse(entries)(scope, receive, send)


async def websocket_with_faults(scope, receive, send, fault):
    """`drop-after=N`: the socket is cut (no close frame) after the server's Nth `next` message."""
    limit = fault.get("drop-after")
    if limit is None:
        return await graphql_app(scope, receive, send)
    remaining = {"n": number(limit)}

    async def counting_send(message):
        await send(message)
        if message.get("type") == "websocket.send" and '"next"' in (message.get("text") or ""):
            remaining["n"] -= 1
            if remaining["n"] <= 0:
                transport = transport_of(send)
                if transport is not None:
                    transport.abort()
                raise ConnectionResetError("dropped by fault")

    try:
        await graphql_app(scope, receive, counting_send)
    except ConnectionResetError:
        return None


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description="Baton's test GraphQL server (see Tests/Server/README.md).")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--manifest", help="an apollo-persisted-query-manifest to serve by id")
    parser.add_argument("--print-schema", action="store_true", help="print the schema's SDL and exit")
    arguments = parser.parse_args()
    if arguments.print_schema:
        from graphql import print_schema
        print(print_schema(schema))
        return
    if arguments.manifest:
        load_manifest(arguments.manifest)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", arguments.port))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", access_log=False, ws="websockets-sansio", http="httptools",
                            lifespan="off", ws_ping_interval=None, timeout_keep_alive=30)
    server = uvicorn.Server(config)

    def watch_stdin():
        # A test runner that dies closes our stdin: never outlive it.
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()

    async def run():
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                return await task
            await asyncio.sleep(0.01)
        print(f"BATON_SERVER_PORT={port}", flush=True)
        await task

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    asyncio.run(run())


if __name__ == "__main__":
    main()
