"""Snapshots of match states every `CACHO_SNAPSHOT_EVERY` events (default 100).

The write path keeps hot matches in its in-process cache (services.state_cache); a
process that has not seen a match (a restart, another server, the timer worker) loads
the newest snapshot at or below the match's version and replays only the events after
it, instead of the whole stream.

A snapshot is stored by the after-commit projection step, from the state the write path
just computed (no replay), once the match is `CACHO_SNAPSHOT_EVERY` events past its last
snapshot. It is a cache, never the truth:

* it records the engine it was made by (`ENGINE`, a digest of the engine's source files):
  after any change to the rules code, older snapshots are ignored and the stream is
  replayed, so a fixed rule can never be hidden behind a stale state;
* a snapshot that does not decode is ignored the same way (and logged);
* deleting them all (`Snapshot.objects.all().delete()`) changes nothing but speed.

`tests/cacho/test_snapshots.py` checks that a state loaded from a snapshot equals the full
replay, for every game.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from cacho.engine.snapshot import SnapshotError, decode_state, encode_state
from cacho.models import Snapshot
from cacho.process.lru import LRU

logger = logging.getLogger(__name__)

DEFAULT_EVERY = 100


def _engine_digest() -> str:
    root = Path(__file__).resolve().parent / "engine"
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


ENGINE = _engine_digest()


def every() -> int:
    return int(getattr(settings, "CACHO_SNAPSHOT_EVERY", DEFAULT_EVERY))


class _Latest:
    """The version of each match's newest snapshot, as this process knows it (read once)."""

    def __init__(self, size: int = 4096) -> None:
        self._versions: LRU[str, int] = LRU(size)

    def get(self, match_id: Any) -> int:
        known = self._versions.get(str(match_id))
        if known is None:
            known = (
                Snapshot.objects.filter(match_id=match_id, engine=ENGINE)
                .order_by("-version")
                .values_list("version", flat=True)
                .first()
            ) or 0
            self.put(match_id, known)
        return known

    def put(self, match_id: Any, version: int) -> None:
        self._versions.update(str(match_id), lambda known: max(version, known or 0))

    def clear(self) -> None:
        self._versions.clear()


LATEST = _Latest()


def maybe_store(match_id: Any, version: int, state: Any) -> bool:
    """Store `state` as the match's snapshot at `version` if the last one is `every()`
    events behind (or there is none past the start). True when one was stored. A match
    not yet `every()` events long has none due whatever its last one: no query for it."""
    if version < every() or version - LATEST.get(match_id) < every():
        return False
    try:
        encoded = encode_state(state)
    except SnapshotError:
        logger.warning(
            "match %s: state at version %s cannot be snapshotted", match_id, version, exc_info=True
        )
        return False
    try:
        with transaction.atomic():
            Snapshot.objects.create(match_id=match_id, version=version, engine=ENGINE, state=encoded)
    except IntegrityError:  # another process stored this version first
        pass
    LATEST.put(match_id, version)
    return True


def load(match_id: Any, at_most: int) -> tuple[int, Any] | None:
    """(version, state) of the newest usable snapshot at or below `at_most`, or None. A
    match shorter than `every()` has none worth a query (most cold loads of new matches)."""
    if at_most < every():
        return None
    rows = (
        Snapshot.objects.filter(match_id=match_id, engine=ENGINE, version__lte=at_most)
        .order_by("-version")
        .values_list("version", "state")[:1]
    )
    for version, encoded in rows:
        try:
            state = decode_state(encoded)
        except SnapshotError:
            logger.warning(
                "match %s: snapshot %s does not decode; replaying", match_id, version, exc_info=True
            )
            return None
        return version, state
    return None
