"""The integrity signals API (docs/integrity.md): a club's signals for its referees
(`GET /api/clubs/<id>/signals`), those of every club the caller referees
(`GET /api/signals`, the dispute queue page's "Signals" section) and those naming a
disputed table's players (`GET /api/disputes/<id>/signals`, the review page). Thin views over
`tournaments.services.integrity`; errors as everywhere in this API (`{"code", "message"}`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, SignedInView
from tournaments.integrity import signals
from tournaments.services import disputes
from tournaments.services import integrity as service


def kind_labels() -> dict[str, str]:
    return {
        signals.NEVER_DOUBTS: _("Never doubt each other"),
        signals.GIFTING: _("Calls that hand dice to the same opponent"),
        signals.EXACT_BIDS: _("Bids too often exactly right"),
        signals.RESPONSE_TIME: _("Response times out of the ordinary"),
    }


def hint(signal: signals.Signal) -> str:
    """One sentence saying what was counted, in the request's language."""
    f, players = signal.figures, signal.players
    if signal.kind == signals.NEVER_DOUBTS:
        return _(
            "%(a)s and %(b)s answered each other's bids %(n)s times without a single dudo "
            "(about %(expected)s expected)."
        ) % {"a": players[0], "b": players[1], "n": f["answers"], "expected": f["expected_doubts"]}
    if signal.kind == signals.GIFTING:
        return _(
            "%(n)s calls by %(a)s on %(b)s's bids: %(k)s cost %(a)s dice or handed %(b)s some "
            "(about %(expected)s expected)."
        ) % {
            "a": players[0],
            "b": players[1],
            "n": f["calls"],
            "k": f["gifts"],
            "expected": f["expected_gifts"],
        }
    if signal.kind == signals.EXACT_BIDS:
        return _(
            "%(a)s's bids doubted with a dudo were exactly right %(k)s times out of %(n)s "
            "(about %(expected)s expected from their own dice)."
        ) % {"a": players[0], "n": f["doubted"], "k": f["exact"], "expected": f["expected_exact"]}
    if f.get("pattern") == "uniform":
        return _("%(a)s's %(n)s decisions took an almost constant time (median %(median)s s).") % {
            "a": players[0],
            "n": f["decisions"],
            "median": f["median_seconds"],
        }
    return _("%(a)s decided in a median of %(median)s s, the other players in %(others)s s.") % {
        "a": players[0],
        "median": f["median_seconds"],
        "others": f["others_median_seconds"],
    }


def signal_json(signal: signals.Signal, match: str | None = None) -> dict[str, Any]:
    """The signal with its hint; with `match`, each round of evidence says whether it is of
    that match (`here`)."""
    return {
        "kind": signal.kind,
        "kind_label": kind_labels()[signal.kind],
        "players": list(signal.players),
        "p_value": signal.p_value,
        "strength": signal.strength,
        "figures": signal.figures,
        "hint": hint(signal),
        "evidence": [
            {**e.as_json(), "url": f"/matches/{e.match}/replay#v={e.version}", "here": e.match == match}
            for e in signal.evidence
        ],
    }


def note() -> str:
    return _("Hints for a referee's review, computed from the match logs: never an automatic penalty.")


class ClubSignalsView(SignedInView):
    @extend_schema(operation_id="club_signals", responses={200: dict, **ERRORS})
    def get(self, request: Request, club_id: str) -> Response:
        """The club's integrity signals, strongest first, each with its figures and the rounds
        it points at (the club's referees only)."""
        club, found, rounds = service.club_signals(club_id, request.user)
        return Response(
            {
                "club": club.pk,
                "name": club.name,
                "rounds": rounds,
                "note": note(),
                "signals": [signal_json(s) for s in found],
            }
        )


class SignalsView(SignedInView):
    @extend_schema(operation_id="signals_list", responses={200: dict, **ERRORS})
    def get(self, request: Request) -> Response:
        """The integrity signals of every club where the caller referees."""
        clubs = []
        for club in service.refereed_clubs(request.user):
            _club, found, rounds = service.club_signals(club.pk, request.user)
            clubs.append(
                {
                    "club": club.pk,
                    "name": club.name,
                    "rounds": rounds,
                    "signals": [signal_json(s) for s in found],
                }
            )
        return Response({"note": note(), "clubs": clubs})


class DisputeSignalsView(SignedInView):
    @extend_schema(operation_id="dispute_signals", responses={200: dict, **ERRORS})
    def get(self, request: Request, dispute_id: str) -> Response:
        """The club's integrity signals that name a player seated at the disputed match, each
        round of evidence marked when it is of that match (the club's referees only)."""
        dispute = disputes.visible(dispute_id, request.user)
        players, found, rounds = service.dispute_signals(dispute, request.user)
        match = str(dispute.match_id)
        return Response(
            {
                "dispute": dispute.pk,
                "match": match,
                "players": players,
                "rounds": rounds,
                "note": note(),
                "signals": [signal_json(s, match) for s in found],
            }
        )
