"""Browser push (Web Push, RFC 8030, with VAPID, RFC 8292) through pywebpush: the payload is
encrypted for each browser's subscription keys (aes128gcm) and posted to the endpoint its
push service gave it. A subscription the service says is gone (404, 410) is forgotten."""

from __future__ import annotations

import base64
import json
import logging
from typing import Any

from django.conf import settings

from tournaments.notices import kinds
from tournaments.notices.models import Notice, PushSubscription

logger = logging.getLogger(__name__)

TIMEOUT = 10.0  # seconds for a push service to answer
TTL = 15 * 60  # seconds a push service keeps a notice for a browser that is offline
GONE = (404, 410)


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def payload(notice: Notice, language: str) -> dict[str, Any]:
    """What the service worker shows: words and a link of this site, nothing else."""
    title, body = kinds.words(notice.kind, notice.params, language)
    return {"title": title, "body": body, "url": notice.link or "/", "tag": notice.key}


def send_to_user(user_id: int, notice: Notice, language: str) -> int:
    """Push `notice` to each of the user's browsers, in `language`; how many accepted it."""
    if not enabled():
        return 0
    from pywebpush import WebPushException, webpush

    data = json.dumps(payload(notice, language), ensure_ascii=False)
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        info = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        try:
            webpush(
                info,
                data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                timeout=TIMEOUT,
                ttl=TTL,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                subscription.delete()
            else:
                PushSubscription.objects.filter(pk=subscription.pk).update(failures=subscription.failures + 1)
                logger.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
            continue
        except Exception:  # a push service that cannot be reached: the next notice tries again
            logger.warning("push to subscription %s failed", subscription.pk, exc_info=True)
            continue
        sent += 1
    return sent


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def generate_keys() -> tuple[str, str]:
    """A new VAPID key pair (public, private), base64url: the uncompressed secp256r1 point the
    browsers take as `applicationServerKey`, and the raw private number pywebpush signs with."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64url(public), _b64url(key.private_numbers().private_value.to_bytes(32, "big"))
