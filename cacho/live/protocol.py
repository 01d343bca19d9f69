"""The match websocket's frames (docs/live.md).

Client to server:
  {"t": "command", "id": CLIENT_COMMAND_ID, "v": EXPECTED_VERSION?, "d": COMMAND}
  {"t": "sync", "v": LAST_VERSION_SEEN}
  {"t": "state"}                      ask for a full state
  {"t": "ping"}
  {"t": "chat", "c": CHANNEL, "text" | "phrase", "id"?}, {"t": "chat-history", "after"?}   table talk
Server to client:
  {"v": VERSION, "t": EVENT_TYPE, "d": PAYLOAD_FOR_THIS_VIEWER, ...}   one per event
  {"t": "state", "v": VERSION, "d": VIEW}                            a full state
  {"t": "ack", "id": ID, "ok": true, "v": VERSION} / {"t": "ack", "id": ID, "ok": false, "code", "message"}
  {"t": "presence", "d": {...}}, {"t": "pong"}, {"t": "error", "code", "message"}
  {"t": "chat", "d": MESSAGE}, {"t": "chat-history", "d": {...}}, {"t": "chat-ack", ...}   table talk

Parsing is strict: a frame that is not one of these is an error frame, never a write.
A frame's JSON and text follow the edges' input policy (cacho.edge.inputs): no NUL nor
non-characters (`invalid-text`), nested at most `cacho.edge.inputs.MAX_DEPTH` deep
(`json-too-deep`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cacho.edge import inputs

MAX_FRAME_BYTES = 16_384
MAX_COMMAND_ID = 64


class FrameError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class CommandFrame:
    command_id: str
    expected_version: int | None
    payload: dict[str, Any]


@dataclass(frozen=True)
class SyncFrame:
    version: int


@dataclass(frozen=True)
class PingFrame:
    pass


@dataclass(frozen=True)
class StateRequest:
    pass


@dataclass(frozen=True)
class TalkFrame:
    """Table talk (`chat`, `chat-history`: docs/table-talk.md), checked by `cacho.talk`."""

    kind: str
    data: dict[str, Any]


ClientFrame = CommandFrame | SyncFrame | PingFrame | StateRequest | TalkFrame

_KEYS: dict[str, tuple[set[str], set[str]]] = {
    "command": ({"t", "id", "d"}, {"v"}),
    "sync": ({"t", "v"}, set()),
    "ping": ({"t"}, set()),
    "state": ({"t"}, set()),
    "chat": ({"t", "c"}, {"id", "text", "phrase"}),
    "chat-history": ({"t"}, {"after"}),
}


def _version(value: object) -> int:
    if type(value) is not int or value < 0:
        raise FrameError("bad-frame", "a version is a whole number, 0 or more")
    return value


def parse_client_frame(text: str | None) -> ClientFrame:
    if text is None:
        raise FrameError("bad-frame", "frames are JSON text")
    if len(text) > MAX_FRAME_BYTES:
        raise FrameError("frame-too-large", f"frames are at most {MAX_FRAME_BYTES} bytes")
    try:
        data = inputs.loads(text, max_bytes=MAX_FRAME_BYTES)
    except inputs.InputError as exc:
        code = "bad-json" if exc.code == "malformed-json" else exc.code
        raise FrameError(code, exc.message) from exc
    if not isinstance(data, dict):
        raise FrameError("bad-frame", "a frame is a JSON object")
    kind = data.get("t")
    if not isinstance(kind, str) or kind not in _KEYS:
        raise FrameError("unknown-frame-type", f"unknown frame type {kind!r}")
    required, optional = _KEYS[kind]
    unknown = sorted(set(data) - required - optional)
    if unknown:
        raise FrameError("unknown-field", f"unknown field(s) {unknown}")
    missing = sorted(required - set(data))
    if missing:
        raise FrameError("missing-field", f"missing field(s) {missing}")
    if kind == "ping":
        return PingFrame()
    if kind == "state":
        return StateRequest()
    if kind == "sync":
        return SyncFrame(_version(data["v"]))
    if kind in ("chat", "chat-history"):
        return TalkFrame(kind, data)
    command_id, payload = data["id"], data["d"]
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= MAX_COMMAND_ID:
        raise FrameError("bad-command-id", f"a command id is a string of 1 to {MAX_COMMAND_ID} characters")
    if not isinstance(payload, dict):
        raise FrameError("bad-frame", "a command's d is a JSON object")
    expected = _version(data["v"]) if "v" in data and data["v"] is not None else None
    return CommandFrame(command_id, expected, payload)


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"t": "error", "code": code, "message": message}


def ack_ok(command_id: str, version: int, repeated: bool) -> dict[str, Any]:
    return {"t": "ack", "id": command_id, "ok": True, "v": version, "repeated": repeated}


def ack_refused(command_id: str, code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"t": "ack", "id": command_id, "ok": False, "code": code, "message": message, **extra}
