"""What an append writes: the events to append, the events as stored, and the fairness
seeds' rows (cacho.eventlog.store writes them, cacho.eventlog.sqlite_writes on SQLite)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cacho.models import Event


@dataclass(slots=True)
class NewEvent:
    """An event to append: the engine's dict without its "type", and its metadata."""

    type: str
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str | None = None


@dataclass(slots=True)
class AppendedEvent:
    """An event as it was just stored: the attributes of `cacho.models.Event` that readers
    use, without a model instance's construction cost on the write path."""

    stream_id: Any
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str | None
    recorded_at: dt.datetime
    hash: str
    position: int | None = None
    txid: int | None = None


StoredEvent = Event | AppendedEvent  # what readers of an event accept


@dataclass(slots=True)
class Seed:
    """A fairness seed as an append writes it: new (inserted with the append), or stored
    already (its count of drawn dice, or its reveal, updated with the append)."""

    scope: str
    seed: str
    commitment: str
    drawn: int = 0
    new: bool = False
    revealed: bool = False


@dataclass(slots=True)
class SeedWrites:
    """The seed rows an append writes: `seeds` (inserted or updated), and the scopes of
    stored seeds that are only revealed."""

    seeds: Sequence[Seed] = ()
    revealed: Sequence[str] = ()


NO_SEEDS = SeedWrites()
