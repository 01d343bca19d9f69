"""The input policy at every edge (REST bodies and query strings, socket frames, match
records): what a client may send before anything reads it.

- Text: no NUL (U+0000), no lone surrogate, no Unicode non-character (U+FDD0–U+FDEF and
  the last two code points of every plane). PostgreSQL cannot store NUL in text or JSON,
  and the others are not text at all; refused as `invalid-text`, in keys and values alike.
- JSON: at most `max_bytes`, nested at most `max_depth` deep (`json-too-deep`), and no
  NaN or Infinity (not JSON; `malformed-json`). The standard parser recurses: a body of
  100,000 brackets must end in a clean refusal, never a RecursionError.

Pure Python, no Django: the socket's parser and the API's parsers call it alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

MAX_DEPTH = 32  # the deepest legal body (a match record) is 5 levels

_BAD_TEXT = re.compile(
    "[\x00\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane << 16 | 0xFFFE)}{chr(plane << 16 | 0xFFFF)}" for plane in range(17))
    + "]"
)


# An escape that may stand for refused text (NUL, a surrogate, a BMP non-character): only then
# are the parsed strings looked at one by one (a surrogate pair of an emoji matches too, and
# is then found clean).
_SUSPECT_ESCAPE = re.compile(
    r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2}|[fF][dD][dDeE][0-9a-fA-F]|[fF]{3}[eEfF])"
)


class InputError(ValueError):
    """A refused input: a stable code, a message, the HTTP status that goes with it."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def plain_digits(value: Any) -> bool:
    """Whether `value`, as text, is one or more ASCII digits: an id or a count that `int`
    reads. Not `str.isdigit`, which holds for "³" and "①" too, where `int` raises."""
    text = str(value)
    return text.isascii() and text.isdigit()


def bad_text(text: str) -> bool:
    return _BAD_TEXT.search(text) is not None


def check_text(text: str, what: str = "text") -> None:
    if _BAD_TEXT.search(text) is not None:
        raise InputError("invalid-text", f"{what} holds a NUL or a character that is not text")


def check_strings(strings: Iterable[str], what: str = "text") -> None:
    for text in strings:
        check_text(text, what)


def _no_constant(name: str) -> Any:
    raise InputError("malformed-json", f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def loads(text: str | bytes, *, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text to a value, within the policy (InputError otherwise)."""
    if len(text) > max_bytes:
        raise InputError("body-too-large", f"at most {max_bytes} bytes", 413)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError("malformed-json", "JSON is UTF-8 text") from exc
    try:
        value = _DECODER.decode(text)
    except RecursionError as exc:
        raise InputError("json-too-deep", f"JSON nests at most {max_depth} levels") from exc
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError("malformed-json", "not valid JSON") from exc
    # Refused text can only come from the raw text (never in ASCII: a raw NUL is not JSON) or
    # from an escape, and a depth past the limit needs that many brackets: a clean frame or
    # command is parsed in a microsecond or two more than by the plain parser.
    suspect = (not text.isascii() and _BAD_TEXT.search(text) is not None) or (
        "\\u" in text and _SUSPECT_ESCAPE.search(text) is not None
    )
    if suspect or text.count("[") + text.count("{") > max_depth:
        check_value(value, max_depth, strings=suspect)
    return value


def check_value(value: Any, max_depth: int = MAX_DEPTH, *, strings: bool = True) -> None:
    """A parsed JSON value within the policy: depth, and text unless `strings` is False
    (InputError otherwise). Iterative: a deep value cannot exhaust the stack here either."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if strings:
                check_text(item)
        elif isinstance(item, dict):
            if depth > max_depth:
                raise InputError("json-too-deep", f"JSON nests at most {max_depth} levels")
            for key, inner in item.items():
                if strings and isinstance(key, str):
                    check_text(key)
                if strings or isinstance(inner, dict | list):
                    stack.append((inner, depth + 1))
        elif isinstance(item, list | tuple):
            if depth > max_depth:
                raise InputError("json-too-deep", f"JSON nests at most {max_depth} levels")
            stack.extend((inner, depth + 1) for inner in item if strings or isinstance(inner, dict | list))
        elif isinstance(item, float) and item != item:  # NaN from a caller's own parser
            raise InputError("malformed-json", "NaN is not JSON")
