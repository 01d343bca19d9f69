"""A player's side of the notices: the bell's list (written in the reader's language),
marking read, the channels chosen per kind, push subscriptions and hidden match tabs."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.notices import kinds, push
from tournaments.notices.models import HiddenTab, Notice, NoticeSettings, PushSubscription

LISTED = 30


def unread(user: Any) -> int:
    return Notice.objects.filter(user=user, in_app=True, read_at__isnull=True).count()


def listed(user: Any, language: str | None = None) -> dict[str, Any]:
    rows = Notice.objects.filter(user=user, in_app=True)[:LISTED]
    notices = []
    for notice in rows:
        title, body = kinds.words(notice.kind, notice.params, language)
        notices.append(
            {
                "id": notice.pk,
                "kind": notice.kind,
                "title": title,
                "body": body,
                "link": notice.link,
                "created_at": notice.created_at,
                "read": notice.read_at is not None,
            }
        )
    return {"unread": unread(user), "notices": notices}


def mark_read(user: Any, ids: list[int], every: bool) -> int:
    rows = Notice.objects.filter(user=user, read_at__isnull=True)
    if not every:
        rows = rows.filter(pk__in=ids)
    rows.update(read_at=timezone.now())
    return unread(user)


def described(user: Any) -> dict[str, Any]:
    row = NoticeSettings.objects.filter(user=user).first()
    choices = row.choices if row else {}
    names = kinds.names()
    return {
        "kinds": [{"kind": k, "name": names[k], **kinds.channels_of(choices, k)} for k in kinds.KINDS],
        "push": {
            "enabled": push.enabled(),
            "public_key": settings.VAPID_PUBLIC_KEY,
            "subscriptions": PushSubscription.objects.filter(user=user).count(),
        },
    }


def _language(language: str | None) -> str:
    known = {code for code, _name in settings.LANGUAGES}
    code = (language or "").split("-")[0].lower()
    return code if code in known else ""


def choose(user: Any, choices: dict[str, dict[str, bool]], language: str | None) -> None:
    unknown = sorted(set(choices) - set(kinds.KINDS))
    if unknown:
        raise TournamentError(
            "unknown-notice-kind",
            _("No such kind of notice: %(kind)s.") % {"kind": unknown[0]},
            field="choices",
        )
    with transaction.atomic():
        row, _created = NoticeSettings.objects.select_for_update().get_or_create(user=user)
        merged = dict(row.choices or {})
        for kind, channels in choices.items():
            merged[kind] = {c: bool(channels[c]) for c in kinds.CHANNELS if c in channels}
        row.choices = merged
        row.language = _language(language) or row.language
        row.save()


def subscribe(user: Any, endpoint: str, p256dh: str, auth: str, language: str | None) -> None:
    if not push.enabled():
        raise TournamentError("push-disabled", _("This site sends no browser notifications."), 409)
    with transaction.atomic():
        # A browser is the account's signed in there now: another's subscription moves over.
        PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth, "failures": 0}
        )
        code = _language(language)
        if code:
            row, _created = NoticeSettings.objects.get_or_create(user=user)
            if row.language != code:
                NoticeSettings.objects.filter(pk=row.pk).update(language=code)


def unsubscribe(user: Any, endpoint: str) -> None:
    PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()


def tab_hidden(user: Any, match_id: uuid.UUID, hidden: bool) -> None:
    if hidden:
        HiddenTab.objects.update_or_create(user=user, match_id=match_id)
    else:
        HiddenTab.objects.filter(user=user, match_id=match_id).delete()
