"""A club's finished tournament matches as `signals.Round`s: the engine's round facts
(`tournaments.matches.played_matches`) joined to the stream's versions and times, seats
named by their users' usernames (seats without an account are left out)."""

from __future__ import annotations

from itertools import islice
from typing import Any

from django.contrib.auth import get_user_model

from tournaments import matches
from tournaments.integrity.signals import Answer, Round, answers_of
from tournaments.models import Table

MATCHES_MAX = 500  # the club's latest finished matches read on each look


def club_rounds(club_id: int) -> list[Round]:
    ids = Table.objects.filter(round__tournament__club_id=club_id, match_id__isnull=False).values_list(
        "match_id", flat=True
    )
    played = list(islice(matches.played_matches(list(ids)), MATCHES_MAX))
    names = usernames({u for m in played for u in m.users.values()})
    return [r for m in played for r in match_rounds(m, {s: names[u] for s, u in m.users.items()})]


def match_rounds(match: matches.PlayedMatch, players: dict[str, str]) -> list[Round]:
    """The match's rounds with `players` (seat name -> key) as the signals' players."""
    found = []
    for facts in match.facts:
        changes = dict(facts.dice_change)
        answers = tuple(
            Answer(players[a.player], players[a.bidder], a.kind)
            for a in answers_of([(d.player, d.kind) for d in facts.decisions])
            if a.player in players and a.bidder in players
        )
        times = ()
        if match.live_clock:
            times = tuple(
                (players[d.player], (match.recorded_at[d.at] - match.recorded_at[d.since]).total_seconds())
                for d in facts.decisions
                if not d.timed_out and d.player in players
            )
        held = dict(facts.hands)
        found.append(
            Round(
                match=str(match.match_id),
                number=facts.number,
                version=match.versions[facts.at],
                answers=answers,
                call=facts.call,
                caller=players.get(facts.caller),
                target=players.get(facts.target) if facts.target else None,
                caller_gave=changes.get(facts.caller, 0) < 0
                or (facts.target is not None and changes.get(facts.target, 0) > 0),
                quantity=facts.quantity,
                count=facts.count,
                bidder_matching=facts.bidder_matching,
                unseen=sum(held.values()) - held.get(facts.target or "", 0),
                chance=facts.chance,
                times=times,
            )
        )
    return found


def usernames(ids: set[Any]) -> dict[Any, str]:
    """The users' usernames by id: how the signals name players."""
    return {u.pk: u.get_username() for u in get_user_model().objects.filter(pk__in=list(ids))}


__all__ = ["MATCHES_MAX", "club_rounds", "match_rounds", "usernames"]
