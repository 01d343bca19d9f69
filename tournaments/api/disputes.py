"""The disputes API: file, read, comment, pause and resume, preview and commit a ruling.
Thin views over `tournaments.services.disputes` and `.rulings`; errors as everywhere in
this API (`{"code", "message"}`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments import matches
from tournaments.api.base import ERRORS, SignedInView
from tournaments.errors import TournamentError
from tournaments.exports import tiebreak_text
from tournaments.models import Dispute
from tournaments.services import disputes, log, referee_tools, rulings


def ruling_labels() -> dict[str, str]:
    return {
        "uphold": _("Uphold: no change"),
        "void-round": _("Void the round and replay it"),
        "adjust-dice": _("Adjust dice"),
        "correct-turn": _("Correct a turn"),
        "award-result": _("Award the table result"),
        "penalty": _("Penalty"),
        "disqualify": _("Disqualify"),
        "reopen": _("Reopen the table"),
        "pause": _("Pause the table"),
        "resume": _("Resume the table"),
    }


def trail_labels() -> dict[str, str]:
    return {
        log.DISPUTE_FILED: _("Dispute filed"),
        log.DISPUTE_COMMENTED: _("Comment"),
        log.TABLE_PAUSED: _("Table paused"),
        log.TABLE_RESUMED: _("Table resumed"),
        log.DISPUTE_RULED: _("Ruling"),
        log.DISPUTE_WITHDRAWN: _("Dispute withdrawn"),
        log.TABLE_CORRECTED: _("Table result corrected"),
        log.TABLE_REOPENED: _("Table reopened"),
        referee_tools.DISPUTE_ASSIGNED: _("Referee assigned"),
        referee_tools.DISPUTE_APPEALED: _("Ruling appealed"),
    }


TRAIL_TYPES = {
    log.DISPUTE_FILED: "filed",
    log.DISPUTE_COMMENTED: "comment",
    log.TABLE_PAUSED: "paused",
    log.TABLE_RESUMED: "resumed",
    log.DISPUTE_RULED: "ruled",
    log.DISPUTE_WITHDRAWN: "withdrawn",
    log.TABLE_CORRECTED: "corrected",
    log.TABLE_REOPENED: "reopened",
    referee_tools.DISPUTE_ASSIGNED: "assigned",
    referee_tools.DISPUTE_APPEALED: "appealed",
}


def _usernames(actors: set[str]) -> dict[str, str]:
    ids = [int(a.split(":", 1)[1]) for a in actors if a.startswith("user:") and plain_digits(a[5:])]
    users = get_user_model().objects.filter(pk__in=ids)
    return {f"user:{u.pk}": u.get_username() for u in users}


def dispute_json(dispute: Dispute, user: Any) -> dict[str, Any]:
    table = dispute.table
    tournament = dispute.tournament
    steps = disputes.trail(dispute)
    names = _usernames({step["actor"] for step in steps})
    labels, kinds = trail_labels(), ruling_labels()
    closes = disputes.window_closes_at(table, matches.ended_at(dispute.match_id))
    referee = disputes.is_referee(user, tournament)
    ruling = None
    if dispute.ruling:
        ruling = {**dispute.ruling, "kind_label": kinds.get(dispute.ruling["kind"], dispute.ruling["kind"])}
    return {
        "id": dispute.pk,
        "tournament": tournament.pk,
        "tournament_name": tournament.name,
        "club": tournament.club_id,
        "table": table.number,
        "table_id": table.pk,
        "stage": table.round.stage.name,
        "round_number": table.round.number,
        "match": str(dispute.match_id),
        "ruleset": tournament.ruleset,
        "game": tournament.game,
        "ruling_form": matches.ruling_form(tournament.ruleset),
        "pinned": {
            "round": dispute.pinned_round,
            "turn": dispute.pinned_turn,
            "version": dispute.pinned_version,
        },
        "reason": dispute.reason,
        "reason_label": str(dict(Dispute.REASON_CHOICES)[dispute.reason]),
        "text": dispute.text,
        "status": dispute.status,
        "status_label": str(dict(Dispute.STATUS_CHOICES)[dispute.status]),
        "filed_by": dispute.filed_by.get_username() if dispute.filed_by else "",
        "filed_at": dispute.filed_at.isoformat(),
        "paused": dispute.paused,
        "ruling": ruling,
        "trail": [
            {
                "type": TRAIL_TYPES.get(step["type"], step["type"]),
                "label": labels.get(step["type"], step["type"]),
                "by": names.get(step["actor"], step["actor"]),
                "at": step["at"].isoformat(),
                "text": step.get("text") or step.get("reason") or "",
                "details": {
                    k: v
                    for k, v in step.items()
                    if k not in ("event", "type", "at", "actor", "text", "dispute")
                },
            }
            for step in steps
        ],
        "can_rule": referee and dispute.status == Dispute.OPEN,
        "window_closes_at": closes.isoformat() if closes else None,
        "assigned_to": dispute.assigned_to.get_username() if dispute.assigned_to else None,
        "appeal_of": dispute.appeal_of_id,
        "appeals": list(dispute.appeals.order_by("pk").values_list("pk", flat=True)),
        # the referees' own notes: absent for anyone else
        **({"notes": notes_json(referee_tools.notes(dispute.pk, user))} if referee else {}),
    }


def notes_json(notes: list[Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": n.pk,
            "by": n.author.get_username() if n.author else "",
            "at": n.created_at.isoformat(),
            "text": n.text,
        }
        for n in notes
    ]


class DisputeInput(serializers.Serializer):
    reason = serializers.CharField(
        help_text="wrong-result, misclick, timeout, collusion, scorekeeping or other"
    )
    text = serializers.CharField(required=False, allow_blank=True, default="")
    round = serializers.IntegerField(required=False, help_text="the round disputed (bidding games), from 1")
    turn = serializers.IntegerField(required=False, help_text="the turn disputed (Alalay), from 1")
    version = serializers.IntegerField(required=False, help_text="the match event disputed, by its version")


class TextInput(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)


class PauseInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class RulingInput(serializers.Serializer):
    ruling = serializers.DictField(help_text="{kind, ...params}: see docs/disputes.md")
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class MatchDisputesView(SignedInView):
    @extend_schema(operation_id="match_disputes_list", responses={200: dict, **ERRORS})
    def get(self, request: Request, match_id: str) -> Response:
        """The disputes of a tournament table's match (its players and the club's referees)."""
        found = disputes.of_match(match_id, request.user)
        return Response({"disputes": [dispute_json(d, request.user) for d in found]})

    @extend_schema(
        operation_id="match_disputes_create", request=DisputeInput, responses={201: dict, 409: dict, **ERRORS}
    )
    def post(self, request: Request, match_id: str) -> Response:
        """File a dispute on a round, a turn or an event of the match (a party to the table)."""
        data = self.valid(DisputeInput, request)
        dispute = disputes.file_dispute(match_id, request.user, **data)
        return Response(dispute_json(dispute, request.user), status=status.HTTP_201_CREATED)


class DisputeQueueView(SignedInView):
    @extend_schema(
        operation_id="disputes_list",
        parameters=[OpenApiParameter("status", str, description="open (default), ruled, withdrawn or all")],
        responses={200: dict, **ERRORS},
    )
    def get(self, request: Request) -> Response:
        """The referee's queue: disputes of every club where the caller referees."""
        wanted = request.query_params.get("status", Dispute.OPEN)
        if wanted not in ("all", *dict(Dispute.STATUS_CHOICES)):
            raise TournamentError("status-unknown", _("Status is open, ruled, withdrawn or all."))
        found = disputes.queue(request.user, None if wanted == "all" else wanted)
        return Response({"disputes": [dispute_json(d, request.user) for d in found[:200]]})


class DisputeView(SignedInView):
    @extend_schema(operation_id="dispute_detail", responses={200: dict, **ERRORS})
    def get(self, request: Request, dispute_id: str) -> Response:
        return Response(dispute_json(disputes.visible(dispute_id, request.user), request.user))


class DisputeCommentView(SignedInView):
    @extend_schema(operation_id="dispute_comment", request=TextInput, responses={201: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        dispute = disputes.comment(dispute_id, request.user, self.valid(TextInput, request)["text"])
        return Response(dispute_json(dispute, request.user), status=status.HTTP_201_CREATED)


class DisputePauseView(SignedInView):
    @extend_schema(
        operation_id="dispute_pause", request=PauseInput, responses={200: dict, 409: dict, **ERRORS}
    )
    def post(self, request: Request, dispute_id: str) -> Response:
        """Stop the table's clock while the referee reviews (the players see the reason)."""
        dispute = disputes.pause(dispute_id, request.user, self.valid(PauseInput, request)["reason"])
        return Response(dispute_json(dispute, request.user))


class DisputeResumeView(SignedInView):
    @extend_schema(operation_id="dispute_resume", request=None, responses={200: dict, 409: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        dispute = disputes.resume(dispute_id, request.user)
        return Response(dispute_json(dispute, request.user))


class DisputeWithdrawView(SignedInView):
    @extend_schema(operation_id="dispute_withdraw", request=None, responses={200: dict, 409: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        dispute = disputes.withdraw(dispute_id, request.user)
        return Response(dispute_json(dispute, request.user))


class RulingPreviewView(SignedInView):
    @extend_schema(operation_id="dispute_preview", request=RulingInput, responses={200: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        """The table's stage standings (with tiebreaks: `criteria`, each row's `values` and
        `tiebreak_text`) and the final ranking, now and after the ruling, with the entries
        whose rank (`changed`) or place (`ranking_changed`) changes; nothing is stored."""
        data = self.valid(RulingInput, request)
        shown = rulings.preview(dispute_id, request.user, data["ruling"])
        for rows in (shown["current"], shown["after"]):
            names = {row["entry"]: row["name"] for row in rows}
            for row in rows:  # the tie each row won, in the request's language
                row["tiebreak_text"] = tiebreak_text(row, names)
        return Response(shown)


class RulingView(SignedInView):
    @extend_schema(
        operation_id="dispute_rule", request=RulingInput, responses={200: dict, 409: dict, **ERRORS}
    )
    def post(self, request: Request, dispute_id: str) -> Response:
        """Commit the ruling: a correcting event of the match, the table's result and the
        standings derived again, the dispute closed."""
        data = self.valid(RulingInput, request)
        dispute = rulings.rule(dispute_id, request.user, data["ruling"], data["reason"])
        return Response(dispute_json(dispute, request.user))
