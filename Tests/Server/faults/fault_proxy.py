#!/usr/bin/env python3
"""A seeded fault-injecting HTTP/1.1 proxy for the fault run (Tests/Server/faults/README.md).

Every POST it receives is one attempt of one labelled request: the label is the request's `id` or `text`
variable, and the attempt counts the label's attempts so far. The fault an attempt gets depends only on the seed,
the label and the attempt, so a run is the same whatever the timing and whichever client language makes it:

  pass          forwarded; the answer relayed
  reset-before  the connection reset (RST) once the request is read, before the server sees it
  reset-after   forwarded (the server executes it), then the connection reset before any answer byte
  close-reused  on a connection that already carried a request: closed once the request is read, not forwarded
                (on a fresh connection the attempt passes, and is logged as `pass`)
  truncate      forwarded; the answer's head and half its body relayed, then the connection closed
  garbage       answered 200 with a body that is not JSON, not forwarded
  status-503    answered 503 with `Retry-After: 0`, not forwarded
  status-429    answered 429 with `Retry-After: 0`, not forwarded
  stall         never answered (the client's deadline ends it), not forwarded

A request with `Connection: close` is its connection's last (answered with `Connection: close`, then closed), as
RFC 9112 asks of a server. Each attempt is appended to the log (JSON lines: label, attempt, fault, method, reused) before its fault acts.

Run:  python3 fault_proxy.py --upstream PORT --seed N --log FILE [--weights pass=6,...]
It prints `FAULT_PROXY_PORT=<port>` and exits when standard input closes.
"""

import argparse
import asyncio
import json
import random
import socket
import struct
import sys

FAULTS = ["pass", "reset-before", "reset-after", "close-reused", "truncate", "garbage", "status-503", "status-429", "stall"]
DEFAULT_WEIGHTS = {"pass": 8, "reset-before": 2, "reset-after": 2, "close-reused": 3, "truncate": 2, "garbage": 1,
                   "status-503": 1, "status-429": 1, "stall": 1}


def choose(seed, label, attempt, weights):
    """The fault of one attempt: a function of the seed, the label and the attempt only."""
    generator = random.Random("%s:%s:%d" % (seed, label, attempt))
    total = sum(weights.values())
    point = generator.uniform(0, total)
    for fault in FAULTS:
        point -= weights.get(fault, 0)
        if point < 0:
            return fault
    return "pass"


async def read_message(reader):
    """One HTTP/1.1 message: (start line, headers as (name, value) pairs, body); None at the end of the stream."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:] if ":" in line]
    length = next((int(value) for name, value in headers if name.lower() == "content-length"), 0)
    body = await reader.readexactly(length) if length else b""
    return lines[0], headers, body


def reset(writer):
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.close()


def respond(status, reason, body, extra=(), closes=False):
    head = ["HTTP/1.1 %d %s" % (status, reason), "Content-Length: %d" % len(body)]
    if closes:
        head.append("Connection: close")
    head += ["%s: %s" % pair for pair in extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class Proxy:
    def __init__(self, upstream, seed, log, weights):
        self.upstream, self.seed, self.weights = upstream, seed, weights
        self.log = open(log, "a", buffering=1)
        self.attempts = {}

    def label(self, body):
        try:
            variables = json.loads(body).get("variables") or {}
        except ValueError:
            return "?"
        return str(variables.get("id") or variables.get("text") or "?")

    async def forward(self, start, headers, body):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        kept = [(name, value) for name, value in headers if name.lower() not in ("connection", "keep-alive")]
        head = [start] + ["%s: %s" % pair for pair in kept] + ["Connection: close"]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        status, response_headers, response_body = await read_message(reader)
        writer.close()
        kept = [(n, v) for n, v in response_headers if n.lower() not in ("connection", "content-length", "keep-alive")]
        code = int(status.split(" ")[1])
        return code, " ".join(status.split(" ")[2:]), response_body, kept

    async def serve(self, reader, writer):
        served = 0
        try:
            while True:
                try:
                    start, headers, body = await read_message(reader)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                closes = any(n.lower() == "connection" and "close" in v.lower() for n, v in headers)
                label = self.label(body)
                attempt = self.attempts.get(label, 0) + 1
                self.attempts[label] = attempt
                fault = choose(self.seed, label, attempt, self.weights)
                if fault == "close-reused" and served == 0:
                    fault = "pass"
                entry = {"label": label, "attempt": attempt, "fault": fault, "method": start.split(" ")[0],
                         "reused": served > 0}
                self.log.write(json.dumps(entry) + "\n")
                served += 1
                if fault == "reset-before":
                    return reset(writer)
                if fault == "close-reused":
                    writer.close()
                    return
                if fault == "garbage":
                    writer.write(respond(200, "OK", b"<html>not json", [("Content-Type", "application/json")], closes))
                elif fault in ("status-503", "status-429"):
                    code = int(fault[-3:])
                    writer.write(respond(code, "Busy", b"try later", [("Retry-After", "0")], closes))
                elif fault == "stall":
                    await reader.read()  # until the client gives up
                    writer.close()
                    return
                else:
                    code, reason, answer, extra = await self.forward(start, headers, body)
                    if fault == "reset-after":
                        return reset(writer)
                    message = respond(code, reason, answer, extra, closes)
                    if fault == "truncate":
                        writer.write(message[: len(message) - len(answer) // 2 - 1])
                        await writer.drain()
                        writer.close()
                        return
                    writer.write(message)
                await writer.drain()
                if closes:
                    # RFC 9112, 9.6: a request with `Connection: close` is the connection's last.
                    writer.close()
                    return
        except (ConnectionError, OSError):
            writer.close()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--weights", default="")
    options = parser.parse_args()
    weights = dict(DEFAULT_WEIGHTS)
    for part in filter(None, options.weights.split(",")):
        name, _, value = part.partition("=")
        if name not in FAULTS:
            sys.exit("unknown fault " + name)
        weights[name] = float(value)
    proxy = Proxy(options.upstream, options.seed, options.log, weights)
    server = await asyncio.start_server(proxy.serve, "127.0.0.1", 0)
    print("FAULT_PROXY_PORT=%d" % server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
