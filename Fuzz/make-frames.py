#!/usr/bin/env python3
"""Writes seed inputs for the websocket fuzz target: byte streams a graphql-transport-ws server sends after the
handshake (unmasked RFC 6455 frames), with the runtime fixtures as `next` payloads.

usage: Fuzz/make-frames.py DIRECTORY FIXTURE.json...
"""
import json
import os
import sys


def frame(payload, opcode=0x1, final=True):
    data = payload.encode() if isinstance(payload, str) else payload
    head = bytes([(0x80 if final else 0) | opcode])
    if len(data) < 126:
        head += bytes([len(data)])
    elif len(data) <= 0xFFFF:
        head += bytes([126]) + len(data).to_bytes(2, "big")
    else:
        head += bytes([127]) + len(data).to_bytes(8, "big")
    return head + data


def message(kind, id=None, payload=None):
    value = {"type": kind}
    if id is not None:
        value["id"] = id
    if payload is not None:
        value["payload"] = payload
    return frame(json.dumps(value, separators=(",", ":")))


def main():
    directory, fixtures = sys.argv[1], sys.argv[2:]
    os.makedirs(directory, exist_ok=True)
    seeds = {
        "ack-complete": message("connection_ack") + message("complete", "1") + message("complete", "2"),
        "ping-error": message("connection_ack") + message("ping") + message("pong")
        + message("error", "1", [{"message": "no"}]) + message("complete", "2"),
        "close": message("connection_ack") + frame(b"\x03\xe8", opcode=0x8),
        "close-4400": message("connection_ack") + frame(b"\x11\x30bad", opcode=0x8),
        "unknown-type": message("connection_ack") + message("surprise"),
        "not-json": message("connection_ack") + frame("{"),
        "control-ping": message("connection_ack") + frame(b"hi", opcode=0x9) + message("complete", "1"),
    }
    for index, path in enumerate(fixtures):
        with open(path, "rb") as file:
            try:
                body = json.load(file)
            except ValueError:
                continue
        whole = message("next", "1", body)
        # The same message in three fragments, with a ping between two of them.
        raw = whole[2:] if whole[1] < 126 else whole[4:] if whole[1] == 126 else whole[10:]
        third = max(len(raw) // 3, 1)
        fragmented = (frame(raw[:third], opcode=0x1, final=False) + frame(b"", opcode=0x9)
                      + frame(raw[third:2 * third], opcode=0x0, final=False) + frame(raw[2 * third:], opcode=0x0))
        seeds[f"next-{index}"] = (message("connection_ack") + whole + message("next", "2", body)
                                  + message("complete", "1") + message("complete", "2"))
        seeds[f"fragmented-{index}"] = message("connection_ack") + fragmented + message("complete", "1")
    for name, data in seeds.items():
        with open(os.path.join(directory, name), "wb") as file:
            file.write(data)


if __name__ == "__main__":
    main()
