"""Making notices and sending them, each channel once.

`notify` runs inside the caller's transaction work: it is called from tasks queued after
the commit of what the notice is about (a round drawn, a ruling, a turn). One notice per
user and key (`Notice.key`), so a repeated task adds nothing; `deliver_notice` then claims
each chosen channel (UPDATE … WHERE its time IS NULL) before sending it, so a repeated or
concurrent delivery sends it once: the bell's nudge over the socket, the email through the
outgoing mail queue (`tournaments.mail`), the push to each of the player's browsers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F, OuterRef, Subquery
from django.utils import timezone

from tournaments.notices import kinds, push
from tournaments.notices.models import Notice, NoticeSettings

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The channel-layer group of a user's notices sockets (`/ws/notices/`)."""
    return f"notices.user.{user_id}"


def language_of(user_id: int) -> str:
    """The language a user's mail and push are written in: their notice settings', else
    their account's, else the site's."""
    language = NoticeSettings.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    if not language:
        from tournaments.accounts.models import Account

        language = Account.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return _spoken(language)


def _spoken(language: str | None) -> str:
    known = {code for code, _name in settings.LANGUAGES}
    language = (language or "").split("-")[0].lower()
    return language if language in known else str(settings.LANGUAGE_CODE)


def notify(user_ids: Iterable[int], kind: str, key: str, params: dict[str, Any], link: str) -> list[int]:
    """A notice of `kind` about `key` to each user (by the channels each chose; none: no
    notice), its delivery queued after commit. The ids of the notices made now."""
    users = sorted(set(user_ids))
    chosen = dict(NoticeSettings.objects.filter(user_id__in=users).values_list("user_id", "choices"))
    wanted = {user_id: kinds.channels_of(chosen.get(user_id) or {}, kind) for user_id in users}
    wanted = {user_id: channels for user_id, channels in wanted.items() if any(channels.values())}
    made = _create_all(wanted, kind, key, params, link)
    if made is None:
        made = _create_each(wanted, kind, key, params, link)
    for notice_id in made:
        transaction.on_commit(lambda n=notice_id: deliver_notice.delay(n))
    return made


def _create_all(
    wanted: dict[int, dict[str, bool]], kind: str, key: str, params: dict[str, Any], link: str
) -> list[int] | None:
    """The notices, in one INSERT (a round drawn tells every seated player at once); None
    when one of them exists already (a repeated task, or a concurrent one) or the database
    does not answer the new rows' ids: then one by one (`_create_each`), which skips those."""
    rows = [
        Notice(user_id=user_id, key=key, kind=kind, params=params, link=link, **channels)
        for user_id, channels in wanted.items()
    ]
    if not rows:
        return []
    try:
        with transaction.atomic():
            created = Notice.objects.bulk_create(rows)
    except IntegrityError:
        return None
    if any(notice.pk is None for notice in created):
        return None
    return [notice.pk for notice in created]


def _create_each(
    wanted: dict[int, dict[str, bool]], kind: str, key: str, params: dict[str, Any], link: str
) -> list[int]:
    made: list[int] = []
    for user_id, channels in wanted.items():
        try:
            with transaction.atomic():
                notice, created = Notice.objects.get_or_create(
                    user_id=user_id,
                    key=key,
                    defaults={"kind": kind, "params": params, "link": link, **channels},
                )
        except IntegrityError:  # made meanwhile by a concurrent task: it delivers it
            continue
        if created:
            made.append(notice.pk)
    return made


def _claim(notice_id: int, field: str) -> bool:
    return bool(
        Notice.objects.filter(pk=notice_id, **{f"{field}__isnull": True}).update(**{field: timezone.now()})
    )


@shared_task(name="tournaments.deliver_notice", ignore_result=True)
def deliver_notice(notice_id: int) -> None:
    """Send a notice by each channel its player chose, once each (idempotent)."""
    notice = Notice.objects.filter(pk=notice_id).first()
    if notice is None:
        return
    # The player's language, read once for the channels that write words (mail, push) and
    # only when one of them does: a round drawn delivers a notice per seated player.
    known: dict[str, str] = {}
    if notice.in_app and _claim(notice.pk, "announced_at"):
        _announce(notice)
    if notice.email:
        _email(notice, known)
    if notice.push and _claim(notice.pk, "pushed_at") and push.enabled():
        language = known["language"] if "language" in known else language_of(notice.user_id)
        push.send_to_user(notice.user_id, notice, language)


def _announce(notice: Notice) -> None:
    """A nudge to the player's open pages (the bell reads the list again): at most once,
    as every channel-layer notice; the list is the truth."""
    from cacho.services import notices as layer

    unread = Notice.objects.filter(user_id=notice.user_id, in_app=True, read_at__isnull=True).count()
    group = user_group(notice.user_id)
    layer.send(
        group, {"type": "notice.new", "group": group, "id": notice.pk, "kind": notice.kind, "unread": unread}
    )


def _email(notice: Notice, known: dict[str, str]) -> None:
    """Through the outgoing mail queue, in the claiming transaction: the claim and the
    queued message commit together (its own task sends it, with retries). The player's
    language (`language_of`) is read with the account, and kept in `known`."""
    from tournaments.mail import send_mail_after_commit, site_url

    chosen = NoticeSettings.objects.filter(user_id=OuterRef("pk")).values("language")[:1]
    user = (
        get_user_model()
        .objects.filter(pk=notice.user_id)
        .annotate(notice_language=Subquery(chosen), account_language=F("account__language"))
        .first()
    )
    if user is None:
        return
    language = known["language"] = _spoken(user.notice_language or user.account_language)
    title, body = kinds.words(notice.kind, notice.params, language)
    with transaction.atomic():
        if not _claim(notice.pk, "emailed_at"):
            return
        context = {
            "title": title,
            "body": body,
            "link": site_url(notice.link) if notice.link else "",
            "settings_link": site_url("/me/notices/"),
        }
        send_mail_after_commit("notice", user, context, language)
