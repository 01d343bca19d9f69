"""Anchors: each match's chain head recorded outside the match, so that a copy of the
database whose events were changed (an actor, a bid) or cut (the last events dropped) and
whose chain was computed again is still found out.

`anchor_heads` writes one `HeadDigest`: the (version, hash) heads of the matches that
moved since the last digest, the sha256 of their canonical JSON, and an HMAC of it with
CACHO_ANCHOR_KEY (a secret kept apart from the database: whoever rewrites the tables cannot
sign a new digest). Each digest is also logged (`anchor digest ...`), which publishes it
wherever the logs go. `check_match` compares a match's events with every digest that
names it: an anchored version missing, or a hash that differs, is a forged or cut log.
Recent moves, after the latest digest, are anchored by the next one (every 5 minutes:
the beat, or `manage.py anchor_heads` from cron where there is no beat).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from cacho.anchors.models import HeadDigest
from cacho.eventlog.chain import digest as digest_of
from cacho.models import Event, Match

logger = logging.getLogger(__name__)

# Events recorded this long before the last digest are looked at again: a transaction that
# recorded its event before the digest was made may commit after it.
OVERLAP = dt.timedelta(minutes=2)


def sign(digest: str) -> str:
    key = str(settings.CACHO_ANCHOR_KEY).encode("utf-8")
    return hmac.new(key, digest.encode("ascii"), hashlib.sha256).hexdigest()


def anchor_heads(now: dt.datetime | None = None) -> HeadDigest | None:
    """One digest of the heads that moved since the last one (None: none moved)."""
    now = now or timezone.now()
    last = HeadDigest.objects.order_by("-pk").first()
    rows = Match.objects.filter(version__gt=0)
    if last is not None:
        moved = Event.objects.filter(recorded_at__gte=last.made_at - OVERLAP).values("stream_id")
        rows = rows.filter(pk__in=moved)
    heads = {str(pk): [version, head] for pk, version, head in rows.values_list("pk", "version", "last_hash")}
    if last is not None:
        heads = {m: head for m, head in heads.items() if last.heads.get(m) != head}
    if not heads:
        return None
    digest = digest_of(heads)
    with transaction.atomic():
        made = HeadDigest.objects.create(made_at=now, heads=heads, digest=digest, signature=sign(digest))
    logger.info("anchor digest %s: %d head(s) %s", made.pk, len(heads), digest)
    return made


def check_match(match_id: Any, events: Sequence[Event]) -> tuple[int, str, str] | None:
    """The first anchor the match's events disagree with: (version, reason, message), or None."""
    key = str(match_id)
    for anchor in HeadDigest.objects.filter(heads__has_key=key).order_by("pk"):
        if digest_of(anchor.heads) != anchor.digest or not hmac.compare_digest(
            sign(anchor.digest), anchor.signature
        ):
            return 0, "anchor-not-signed", f"digest {anchor.pk} does not match its signature"
        version, head = anchor.heads[key]
        if version > len(events):
            message = f"digest {anchor.pk} anchors version {version}; the log holds {len(events)}"
            return version, "anchored-event-missing", message
        if events[version - 1].hash != head:
            return version, "anchor-mismatch", f"event {version} differs from digest {anchor.pk}"
    return None
