"""The hash chain of both logs (a match's events, a tournament's log) and the canonical JSON
it hashes: one primitive, `link(previous, body)` = sha256(previous hash + canonical JSON of
the event), the first event chaining to the empty string.

A match event's body holds its stream, version, type, schema version, payload, metadata
and recorded time in microseconds: the store computes its hash on append, `verify`
(services) recomputes it from the stored events. The tournament log's body is in
`tournaments/services/log.py`. `digest` is the sha256 of one value's canonical JSON (an
options hash).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from json import encoder as json_encoder
from typing import Any

from cacho.models import Event

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICROSECOND = dt.timedelta(microseconds=1)

# Canonical JSON: sorted keys, no spaces, UTF-8 text. `json.dumps` with options builds an
# encoder per call, and `JSONEncoder.encode` builds its C encoder and a circular-reference
# memo per call: the C encoder is made once here (the chain encodes two values per event).
# Cycles cannot occur (engine events, and JSON parsed from clients).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_C_ENCODER = (
    None
    if json_encoder.c_make_encoder is None
    else json_encoder.c_make_encoder(
        None, _ENCODER.default, json_encoder.encode_basestring, None, ":", ",", True, False, True
    )
)


def canonical_json(value: Any) -> str:
    if _C_ENCODER is None:  # an interpreter without the C accelerator
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def link(previous: str, body_json: str) -> str:
    """The next hash of a chain: sha256 of the previous hash followed by the event's
    canonical JSON (`canonical_json` of its body)."""
    return hashlib.sha256((previous + body_json).encode("utf-8")).hexdigest()


def digest(value: Any) -> str:
    """The sha256 of a value's canonical JSON."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def micros(moment: dt.datetime) -> int:
    return (moment - EPOCH) // _MICROSECOND


def from_ms(at_ms: int) -> dt.datetime:
    """An event's recorded time from the server's milliseconds (exact: the hash takes µs)."""
    return EPOCH + dt.timedelta(milliseconds=at_ms)


def hash_of_encoded(
    previous: str,
    stream: str,
    version: int,
    type_: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    recorded_micros: int,
) -> str:
    """The event's hash from the canonical JSON of its payload and metadata, which the
    append also sends as the rows' values (each encoded once). The body is the canonical
    JSON of {stream, version, type, schema, payload, metadata, recorded_at}, written out in
    its sorted key order."""
    body = (
        f'{{"metadata":{metadata_json},"payload":{payload_json},"recorded_at":{recorded_micros},'
        f'"schema":{schema_version},"stream":{_quoted(stream)},"type":{_quoted(type_)},'
        f'"version":{version}}}'
    )
    return link(previous, body)


@functools.lru_cache(maxsize=4096)
def _quoted(text: str) -> str:
    """A stream id or an event type as canonical JSON (the same few strings again and again)."""
    return canonical_json(text)


def stored_hash(event: Event, previous: str) -> str:
    """What a stored event's hash must be, chained to `previous`."""
    return hash_of_encoded(
        previous,
        str(event.stream_id),
        event.version,
        event.type,
        event.schema_version,
        canonical_json(event.payload),
        canonical_json(event.metadata),
        micros(event.recorded_at),
    )
