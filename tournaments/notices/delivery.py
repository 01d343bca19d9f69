"""Making notices and sending them, each channel once.

`notify` runs inside the caller's transaction work: it is called from tasks queued after
the commit of what the notice is about (a round drawn, a ruling, a turn). One notice per
user and key (`Notice.key`), so a repeated task adds nothing; `deliver_notices` then claims
each chosen channel (its time set where it is not) before sending it, so a repeated or
concurrent delivery sends it once: the bell's nudge over the socket, the email through the
outgoing mail queue (`tournaments.mail`), the push to each of the player's browsers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, F, OuterRef, Subquery
from django.utils import timezone

from tournaments.mail import spoken
from tournaments.notices import kinds, push
from tournaments.notices.models import Notice, NoticeSettings

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The channel-layer group of a user's notices sockets (`/ws/notices/`)."""
    return f"notices.user.{user_id}"


@dataclass(frozen=True)
class Tidings:
    """One notice's subject told to some users: its key, words' parameters and link."""

    user_ids: Iterable[int]
    key: str
    params: dict[str, Any]
    link: str


def notify(user_ids: Iterable[int], kind: str, key: str, params: dict[str, Any], link: str) -> list[int]:
    """A notice of `kind` about `key` to each user (by the channels each chose; none: no
    notice), its delivery queued after commit. The ids of the notices made now."""
    return notify_all(kind, [Tidings(user_ids, key, params, link)])


def notify_all(kind: str, tidings: Iterable[Tidings]) -> list[int]:
    """`notify` for several subjects of one kind at once (a round drawn: a table each): the
    players' choices read once, the notices made in one INSERT and delivered by one task."""
    rows = [(user_id, told) for told in tidings for user_id in sorted(set(told.user_ids))]
    chosen = dict(
        NoticeSettings.objects.filter(user_id__in={user_id for user_id, _ in rows}).values_list(
            "user_id", "choices"
        )
    )
    wanted = [
        (user_id, told, channels)
        for user_id, told in rows
        if any((channels := kinds.channels_of(chosen.get(user_id) or {}, kind)).values())
    ]
    made = _create_all(wanted, kind)
    if made is None:
        made = _create_each(wanted, kind)
    if made:
        transaction.on_commit(lambda: deliver_notices.delay(made))
    return made


Wanted = list[tuple[int, Tidings, dict[str, bool]]]


def _create_all(wanted: Wanted, kind: str) -> list[int] | None:
    """The notices, in one INSERT (a round drawn tells every seated player at once); None
    when one of them exists already (a repeated task, or a concurrent one) or the database
    does not answer the new rows' ids: then one by one (`_create_each`), which skips those."""
    rows = [
        Notice(user_id=user_id, key=told.key, kind=kind, params=told.params, link=told.link, **channels)
        for user_id, told, channels in wanted
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


def _create_each(wanted: Wanted, kind: str) -> list[int]:
    made: list[int] = []
    for user_id, told, channels in wanted:
        try:
            with transaction.atomic():
                notice, created = Notice.objects.get_or_create(
                    user_id=user_id,
                    key=told.key,
                    defaults={"kind": kind, "params": told.params, "link": told.link, **channels},
                )
        except IntegrityError:  # made meanwhile by a concurrent task: it delivers it
            continue
        if created:
            made.append(notice.pk)
    return made


def _claim(notices: list[Notice], field: str) -> list[Notice]:
    """The notices whose channel `field` this call claims (sets its time where it is not set),
    in two statements for all of them: the free ones locked, then stamped. A concurrent
    delivery waits on the locks and finds them taken (PostgreSQL reads a locked row again
    before it answers it; SQLite's transactions here take the write lock at their start)."""
    if not notices:
        return []
    with transaction.atomic():
        free = set(
            Notice.objects.select_for_update()
            .filter(pk__in=[notice.pk for notice in notices], **{f"{field}__isnull": True})
            .values_list("pk", flat=True)
        )
        if free:
            Notice.objects.filter(pk__in=free).update(**{field: timezone.now()})
    return [notice for notice in notices if notice.pk in free]


@shared_task(name="tournaments.deliver_notices", ignore_result=True)
def deliver_notices(notice_ids: list[int]) -> None:
    """Send notices by each channel their players chose, once each (idempotent): the
    notices, the unread counts and the players' languages are read once for all of them
    (a round drawn delivers a notice per seated player), and each channel claimed for all of
    them at once."""
    notices = list(Notice.objects.filter(pk__in=notice_ids).order_by("pk"))
    announced = _claim([notice for notice in notices if notice.in_app], "announced_at")
    if announced:
        _announce(announced)
    writing = [notice for notice in notices if notice.email or notice.push]
    users = _readers({notice.user_id for notice in writing}) if writing else {}
    readers = [notice for notice in writing if notice.user_id in users]
    _email([notice for notice in readers if notice.email], users)
    for notice in _claim([notice for notice in readers if notice.push], "pushed_at"):
        if push.enabled():
            push.send_to_user(notice.user_id, notice, users[notice.user_id].language)


@shared_task(name="tournaments.deliver_notice", ignore_result=True)
def deliver_notice(notice_id: int) -> None:
    """One notice by id (`deliver_notices`): the name stays registered for the tasks a
    broker holds under it."""
    deliver_notices([notice_id])


def _readers(user_ids: set[int]) -> dict[int, Any]:
    """The users by id, each with `language`: the one their mail and push are written in
    (their notice settings', else their account's, else the site's), in one query."""
    chosen = NoticeSettings.objects.filter(user_id=OuterRef("pk")).values("language")[:1]
    users = (
        get_user_model()
        .objects.filter(pk__in=user_ids)
        .annotate(notice_language=Subquery(chosen), account_language=F("account__language"))
    )
    for user in users:
        user.language = spoken(user.notice_language or user.account_language)
    return {user.pk: user for user in users}


def _announce(notices: list[Notice]) -> None:
    """A nudge to each player's open pages (the bell reads the list again): at most once,
    as every channel-layer notice; the list is the truth."""
    from cacho.services import notices as layer

    unread = dict(
        Notice.objects.filter(
            user_id__in={notice.user_id for notice in notices}, in_app=True, read_at__isnull=True
        )
        .values("user_id")
        .annotate(count=Count("pk"))
        .values_list("user_id", "count")
    )
    for notice in notices:
        group = user_group(notice.user_id)
        layer.send(
            group,
            {
                "type": "notice.new",
                "group": group,
                "id": notice.pk,
                "kind": notice.kind,
                "unread": unread.get(notice.user_id, 0),
            },
        )


def _email(notices: list[Notice], users: dict[int, Any]) -> None:
    """Through the outgoing mail queue, in the claiming transaction: the claims and the
    queued messages commit together (each message's own task sends it, with retries)."""
    if not notices:
        return
    from tournaments.mail import send_mail_after_commit, site_url

    with transaction.atomic():
        for notice in _claim(notices, "emailed_at"):
            user = users[notice.user_id]
            title, body = kinds.words(notice.kind, notice.params, user.language)
            context = {
                "title": title,
                "body": body,
                "link": site_url(notice.link) if notice.link else "",
                "settings_link": site_url("/me/notices/"),
            }
            send_mail_after_commit("notice", user, context, user.language)
