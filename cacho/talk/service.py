"""Table talk's one write path and its reads (docs/table-talk.md): post, history, mute,
report, the moderators' queue and its resolution. The REST views and the match socket
both call these; every refusal is a `TalkError` with a stable code, and stores nothing.

What a reader may see:
- the players' chat: everyone who watches the table (players, referees, spectators);
- the spectators' chat: everyone but the seated players while the table plays; they read
  it once it has ended. A message carries only what its author typed (or a phrase key), the
  author's name and seat: nothing of the match's state.
A seated player's mutes hide the muted seats' messages from that player alone.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cacho.edge import inputs, limits
from cacho.models import Match, Seat
from cacho.services import notices, seat_holders
from cacho.services.matches import seat_of_user
from cacho.talk import phrases, policy
from cacho.talk.models import ChatMessage, ChatMute, ChatReport

MAX_CHARS = 280  # a message's length (`CACHO_TALK_MAX_CHARS`)
CONTEXT = 5  # messages kept on each side of a reported one
HISTORY = 200  # the most a history answers


def max_chars() -> int:
    return int(getattr(settings, "CACHO_TALK_MAX_CHARS", MAX_CHARS))


class TalkError(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


@dataclass(frozen=True)
class Speaker:
    """Who talks or reads: a seated player (by account or a seat their session holds), or
    anyone else watching (a referee reads as a spectator does), signed in or not."""

    seat: str | None
    user_id: int | None
    name: str

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None


def match_of(match_id: Any) -> Match:
    try:
        key = uuid.UUID(str(match_id))
    except ValueError as exc:
        raise TalkError(404, "not-found", _("No such match.")) from exc
    match = Match.objects.filter(pk=key).first()
    if match is None:
        raise TalkError(404, "not-found", _("No such match."))
    return match


def speaker(match: Match, user: Any, session: Any = None) -> Speaker:
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    user_id = user.pk if signed_in else None
    seat = seat_of_user(match, user) if signed_in else None
    name = seat.name if seat is not None else seat_holders.session_seat(match.pk, session)
    if name is not None:
        return Speaker(name, user_id, name)
    if not signed_in:
        return Speaker(None, None, "")
    return Speaker(None, user_id, user.get_username())


def may_read(match: Match, who: Speaker, channel: str) -> bool:
    if channel == ChatMessage.PLAYERS:
        return True
    return who.seat is None or match.status == Match.STATUS_FINISHED


def message_json(message: ChatMessage) -> dict[str, Any]:
    """A message as every client receives it: what its author sent, who and when."""
    return {
        "id": message.pk,
        "c": message.channel,
        "seat": message.seat_name or None,
        "author": message.author,
        "phrase": message.phrase or None,
        "text": message.text,
        "at": int(message.at.timestamp() * 1000),
    }


def notice(message: ChatMessage) -> dict[str, Any]:
    """The group message of a new chat message (cacho.live.talk delivers it to each socket
    that may read it)."""
    group = notices.group_name(message.match_id)
    return {
        "type": "match.chat",
        "group": group,
        "message": message_json(message),
        "during_play": message.during_play,
    }


def _checked_text(text: Any, phrase: Any) -> tuple[str, str]:
    if phrase not in (None, ""):
        if text not in (None, ""):
            raise TalkError(
                400, "chat-text-and-phrase", _("Send a quick phrase or your own words, not both.")
            )
        if not isinstance(phrase, str) or not phrases.known(phrase):
            raise TalkError(400, "chat-phrase-unknown", _("That is not one of the quick phrases."))
        return phrase, ""
    if not isinstance(text, str) or not text.strip():
        raise TalkError(400, "chat-empty", _("Write something first."))
    text = text.strip()
    if len(text) > max_chars():
        raise TalkError(
            400,
            "chat-too-long",
            _("A message is at most %(n)d characters.") % {"n": max_chars()},
            max_chars=max_chars(),
        )
    if inputs.bad_text(text) or any(ch < " " and ch not in "\n\t" for ch in text):
        raise TalkError(400, "chat-text-invalid", _("The message holds characters that are not text."))
    return "", text


def post(match: Match, who: Speaker, channel: Any, *, text: Any = None, phrase: Any = None) -> dict[str, Any]:
    """Store one message (append-only) and, after the commit, tell the match's sockets."""
    if channel not in ChatMessage.CHANNELS:
        raise TalkError(400, "chat-channel-unknown", _("The chat is the players' or the spectators'."))
    if channel == ChatMessage.PLAYERS:
        if who.seat is None:
            raise TalkError(
                403, "chat-not-seated", _("Only the players at the table write in the players' chat.")
            )
        if not policy.table_talk(match.pk).player_chat:
            raise TalkError(
                403, "chat-off", _("The organisers switched the players' chat off for this tournament.")
            )
    else:
        if who.seat is not None:
            raise TalkError(
                403, "chat-players-elsewhere", _("Players at the table talk in the players' chat.")
            )
        if not who.signed_in:
            raise TalkError(403, "chat-sign-in", _("Sign in to write in the spectators' chat."))
    phrase_key, body = _checked_text(text, phrase)
    ident = who.user_id if who.user_id is not None else f"{match.pk}:{who.seat}"
    wait = limits.hit("chat", ident)
    if wait is not None:
        raise TalkError(
            429,
            "chat-rate-limited",
            _("You are writing too fast: wait a moment."),
            retry_after=max(1, round(wait)),
        )
    with transaction.atomic():
        message = ChatMessage.objects.create(
            match=match,
            channel=channel,
            seat_name=who.seat or "",
            user_id=who.user_id,
            author=who.name,
            phrase=phrase_key,
            text=body,
            during_play=match.status != Match.STATUS_FINISHED,
            at=timezone.now(),
        )
        shown = notice(message)
        transaction.on_commit(lambda: notices.send(shown["group"], shown))
    return message_json(message)


def muted_by(match_id: Any, seat: str | None) -> set[str]:
    if seat is None:
        return set()
    return set(ChatMute.objects.filter(match_id=match_id, seat_name=seat).values_list("muted", flat=True))


def history(match: Match, who: Speaker, after: int = 0) -> list[dict[str, Any]]:
    """The last messages this reader may see (after the message id `after`), oldest first."""
    channels = [channel for channel in ChatMessage.CHANNELS if may_read(match, who, channel)]
    rows = ChatMessage.objects.filter(match=match, channel__in=channels, pk__gt=after)
    muted = muted_by(match.pk, who.seat)
    if muted:
        rows = rows.exclude(seat_name__in=muted)
    newest = list(rows.order_by("-pk")[:HISTORY])
    return [message_json(message) for message in reversed(newest)]


def chat_settings(match: Match, who: Speaker) -> dict[str, Any]:
    """What this reader may do here: the chats they may write in, whom they muted."""
    talk = policy.table_talk(match.pk)
    can_post = []
    if who.seat is not None and talk.player_chat:
        can_post.append(ChatMessage.PLAYERS)
    if who.seat is None and who.signed_in:
        can_post.append(ChatMessage.SPECTATORS)
    return {
        "player_chat": talk.player_chat,
        "can_post": can_post,
        "reads": [channel for channel in ChatMessage.CHANNELS if may_read(match, who, channel)],
        "seat": who.seat,
        "muted": sorted(muted_by(match.pk, who.seat)),
        "can_report": who.signed_in or who.seat is not None,
        "max_chars": max_chars(),
    }


def mute(match: Match, who: Speaker, target: Any, on: bool) -> list[str]:
    """Mute (or unmute) a seat for this player alone; the answer is every seat they mute."""
    if who.seat is None:
        raise TalkError(403, "chat-not-seated", _("Only a player at the table mutes another."))
    if not isinstance(target, str) or not Seat.objects.filter(match=match, name=target).exists():
        raise TalkError(400, "chat-seat-unknown", _("No such seat at this table."))
    if target == who.seat:
        raise TalkError(400, "chat-mute-self", _("You cannot mute yourself."))
    with transaction.atomic():
        if on:
            ChatMute.objects.get_or_create(match=match, seat_name=who.seat, muted=target)
        else:
            ChatMute.objects.filter(match=match, seat_name=who.seat, muted=target).delete()
        muted = sorted(muted_by(match.pk, who.seat))
        group = notices.group_name(match.pk)
        message = {"type": "match.mutes", "group": group, "seat": who.seat, "muted": muted}
        transaction.on_commit(lambda: notices.send(group, message))
    return muted


def report_json(report: ChatReport) -> dict[str, Any]:
    return {
        "id": report.pk,
        "match": str(report.match_id),
        "queue": "club" if report.club_id is not None else "site",
        "club": report.club_id,
        "message": message_json(report.message),
        "reporter": report.reporter,
        "reason": report.reason,
        "context": report.context,
        "at": int(report.at.timestamp() * 1000),
        "status": report.status,
        "note": report.note,
        "resolved_at": int(report.resolved_at.timestamp() * 1000) if report.resolved_at else None,
    }


def report(match: Match, who: Speaker, message_id: Any, reason: Any = "") -> dict[str, Any]:
    """File a report of one message into its table's queue, with the messages around it
    that the reporter could read."""
    if not who.signed_in and who.seat is None:
        raise TalkError(403, "chat-sign-in", _("Sign in to report a message."))
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > 500 or inputs.bad_text(reason):
        raise TalkError(400, "chat-reason-invalid", _("A reason is text of at most 500 characters."))
    if type(message_id) is not int:
        raise TalkError(400, "chat-message-unknown", _("No such message."))
    message = ChatMessage.objects.filter(match=match, pk=message_id).first()
    if message is None or not may_read(match, who, message.channel):
        raise TalkError(404, "chat-message-unknown", _("No such message."))
    if (who.seat is not None and message.seat_name == who.seat) or (
        who.seat is None and who.user_id is not None and message.user_id == who.user_id
    ):
        raise TalkError(400, "chat-report-own", _("You cannot report your own message."))
    around = ChatMessage.objects.filter(match=match, channel=message.channel)
    before = list(around.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT])
    after = list(around.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT])
    context = [message_json(row) for row in [*reversed(before), message, *after]]
    try:
        with transaction.atomic():
            row = ChatReport.objects.create(
                message=message,
                match=match,
                club_id=policy.table_talk(match.pk).club_id,
                reporter_id=who.user_id,
                reporter=who.name,
                reason=reason.strip(),
                context=context,
                at=timezone.now(),
            )
    except IntegrityError as exc:
        raise TalkError(409, "chat-already-reported", _("You already reported this message.")) from exc
    return report_json(row)


def _queues(user: Any) -> tuple[set[int], bool]:
    clubs = policy.moderated_clubs(user)
    site = policy.site_moderator(user)
    if not clubs and not site:
        raise TalkError(403, "chat-not-moderator", _("Only the moderators see reported messages."))
    return clubs, site


def queue(user: Any, status: str = ChatReport.OPEN) -> list[dict[str, Any]]:
    """The reports this moderator handles: their clubs' and, for a site moderator, the
    casual tables'; oldest first."""
    clubs, site = _queues(user)
    statuses = [code for code, _name in ChatReport.STATUS_CHOICES]
    if status != "all" and status not in statuses:
        raise TalkError(400, "chat-status-unknown", _("The status is open, dismissed, acted or all."))
    rows = ChatReport.objects.filter(club_id__in=clubs)
    if site:
        rows = rows | ChatReport.objects.filter(club_id__isnull=True)
    if status != "all":
        rows = rows.filter(status=status)
    return [report_json(row) for row in rows.select_related("message").order_by("pk")[:500]]


def resolve(user: Any, report_id: int, outcome: Any, note: Any = "") -> dict[str, Any]:
    clubs, site = _queues(user)
    if outcome not in (ChatReport.DISMISSED, ChatReport.ACTED):
        raise TalkError(400, "chat-outcome-unknown", _("A report is dismissed or acted on."))
    note = note or ""
    if not isinstance(note, str) or len(note) > 500 or inputs.bad_text(note):
        raise TalkError(400, "chat-note-invalid", _("A note is text of at most 500 characters."))
    with transaction.atomic():
        row = ChatReport.objects.select_for_update().filter(pk=report_id).first()
        allowed = row is not None and (row.club_id in clubs if row.club_id is not None else site)
        if row is None or not allowed:
            raise TalkError(404, "chat-report-unknown", _("No such report in your queue."))
        if row.status != ChatReport.OPEN:
            raise TalkError(409, "chat-report-resolved", _("This report is already resolved."))
        row.status = outcome
        row.note = note.strip()
        row.resolved_by_id = user.pk
        row.resolved_at = timezone.now()
        row.save(update_fields=["status", "note", "resolved_by_id", "resolved_at"])
    return report_json(ChatReport.objects.select_related("message").get(pk=row.pk))
