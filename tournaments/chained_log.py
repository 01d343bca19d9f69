"""One hash-chained log primitive for the logs a tournament platform keeps about its own
objects (a tournament's log, a club's log): an abstract event model whose concrete logs say
which row owns them, and one `record` / `verify` for all.

`hash = sha256(previous hash + canonical JSON of {<owner key>, version, type, payload,
actor, recorded_at (microseconds)})`, the match log's primitive (`cacho.eventlog.chain.link`);
the first event chains to "". The owner row holds the head (`version`, `head_hash`); a caller
of `record` holds the owner's row lock (SELECT ... FOR UPDATE), so versions are gap-free.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar, Self

from django.db import models
from django.utils import timezone

from cacho.eventlog.chain import canonical_json, link, micros


class ChainedEvent(models.Model):
    """An event of an append-only, versioned, hash-chained log. A concrete log adds the
    foreign key to its owner, named `OWNER`, and its Meta (the unique owner/version pair)."""

    OWNER: ClassVar[str]  # the foreign key to the row that owns the log and holds its head
    # The key the owner's id is hashed under: part of every stored hash, so it never changes.
    OWNER_KEY: ClassVar[str]

    version = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    actor = models.CharField(max_length=64, blank=True, default="")
    recorded_at = models.DateTimeField()
    hash = models.CharField(max_length=64)

    class Meta:
        abstract = True

    @classmethod
    def digest(
        cls, previous: str, owner_id: int, version: int, type_: str, payload: Any, actor: str, at: dt.datetime
    ) -> str:
        body = canonical_json(
            {
                cls.OWNER_KEY: owner_id,
                "version": version,
                "type": type_,
                "payload": payload,
                "actor": actor,
                "recorded_at": micros(at),
            }
        )
        return link(previous, body)

    @classmethod
    def record(cls, owner: models.Model, type_: str, payload: dict[str, Any], actor: str = "") -> Self:
        """Append one event after `owner`'s head and move the head (the caller holds the
        owner's row lock)."""
        at = timezone.now()
        version = owner.version + 1  # type: ignore[attr-defined]
        digest = cls.digest(owner.head_hash, owner.pk, version, type_, payload, actor, at)  # type: ignore[attr-defined]
        event = cls.objects.create(
            **{cls.OWNER: owner},
            version=version,
            type=type_,
            payload=payload,
            actor=actor,
            recorded_at=at,
            hash=digest,
        )
        owner.version, owner.head_hash = version, digest  # type: ignore[attr-defined]
        type(owner).objects.filter(pk=owner.pk).update(version=version, head_hash=digest)
        return event

    @classmethod
    def verify(cls, owner_id: int) -> tuple[bool, str]:
        """(valid, head hash) recomputed from the stored events: versions 1, 2, ... without a
        gap, each hash chained to the one before."""
        previous = ""
        events = cls.objects.filter(**{f"{cls.OWNER}_id": owner_id}).order_by("version")
        for expected, event in enumerate(events, start=1):
            if event.version != expected:
                return False, previous
            digest = cls.digest(
                previous, owner_id, event.version, event.type, event.payload, event.actor, event.recorded_at
            )
            if digest != event.hash:
                return False, previous
            previous = digest
        return True, previous
