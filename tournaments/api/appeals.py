"""The appeals API: the appeal period between rounds (the director's "draw now", a
referee's hold on the draw) and the referees' tools around a dispute (claim, assign,
referee-only notes, an appeal or a revision of a ruling as a linked dispute). Thin views
over `tournaments.services.appeals` and `.referee_tools`; errors `{"code", "message"}`."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments.api.base import ERRORS, SignedInView
from tournaments.api.disputes import dispute_json, notes_json
from tournaments.errors import NotFound
from tournaments.models import Round
from tournaments.services import appeals, draw_control, referee_tools


class AssignInput(serializers.Serializer):
    referee = serializers.CharField(allow_null=True, help_text="a referee's username; null: nobody")


class NoteInput(serializers.Serializer):
    text = serializers.CharField(allow_blank=True)


class AppealInput(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, required=False, default="")
    reason = serializers.CharField(required=False, allow_blank=True, default="", help_text="as for a filing")


class HoldInput(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class DisputeClaimView(SignedInView):
    @extend_schema(operation_id="dispute_claim", request=None, responses={200: dict, 409: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        """The calling referee handles the dispute (403 `ruling-not-referee` for anyone else)."""
        return Response(dispute_json(referee_tools.claim(dispute_id, request.user), request.user))


class DisputeAssignView(SignedInView):
    @extend_schema(
        operation_id="dispute_assign", request=AssignInput, responses={200: dict, 409: dict, **ERRORS}
    )
    def post(self, request: Request, dispute_id: str) -> Response:
        """A referee hands the dispute to another referee of the club (400
        `dispute-referee-unknown` for anyone else), or to nobody."""
        data = self.valid(AssignInput, request)
        dispute = referee_tools.assign(dispute_id, request.user, data["referee"])
        return Response(dispute_json(dispute, request.user))


class DisputeNotesView(SignedInView):
    @extend_schema(operation_id="dispute_notes", responses={200: dict, **ERRORS})
    def get(self, request: Request, dispute_id: str) -> Response:
        """The referees' notes on the dispute (referees only; never in the public trail)."""
        return Response({"notes": notes_json(referee_tools.notes(dispute_id, request.user))})

    @extend_schema(operation_id="dispute_note_add", request=NoteInput, responses={201: dict, **ERRORS})
    def post(self, request: Request, dispute_id: str) -> Response:
        referee_tools.add_note(dispute_id, request.user, self.valid(NoteInput, request)["text"])
        notes = referee_tools.notes(dispute_id, request.user)
        return Response({"notes": notes_json(notes)}, status=status.HTTP_201_CREATED)


class DisputeAppealView(SignedInView):
    @extend_schema(
        operation_id="dispute_appeal", request=AppealInput, responses={201: dict, 409: dict, **ERRORS}
    )
    def post(self, request: Request, dispute_id: str) -> Response:
        """Appeal (a party) or revise (a referee) a ruled dispute: a new dispute on the same
        table and pin, linked by `appeal_of`, within the table's appeal window (409
        `dispute-not-ruled`, `dispute-appealed-already`, `dispute-window-closed`)."""
        data = self.valid(AppealInput, request)
        dispute = referee_tools.appeal(dispute_id, request.user, data["text"], data["reason"] or None)
        return Response(dispute_json(dispute, request.user), status=status.HTTP_201_CREATED)


def _round(round_id: str) -> Round:
    rnd = Round.objects.select_related("tournament").filter(pk=int(round_id) if plain_digits(round_id) else 0)
    found = rnd.first()
    if found is None:
        raise NotFound(_("No such round."))
    return found


class DrawNowView(SignedInView):
    @extend_schema(
        operation_id="tournament_draw_now",
        request=None,
        responses={200: OpenApiTypes.OBJECT, 409: dict, **ERRORS},
        description=(
            "The director (organisers, referees) draws the next round now, without waiting for the "
            "appeal period. Answers `{round}`: the round drawn, or null when the tournament "
            "finished instead. Refused, storing nothing: `round-not-finished`, `draw-held`, "
            "`draw-disputed`, `tournament-not-running` (409), `forbidden` (403)."
        ),
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return Response({"round": draw_control.draw_now(tournament_id, request.user)})


class RoundAppealView(SignedInView):
    permission_classes = [permissions.AllowAny]  # public, as the console and the round clock are

    @extend_schema(
        operation_id="round_appeal",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "The round's appeal period: `waiting` (finished, the next round not drawn), `draw_at` "
            "and `remaining_ms` (when the next round is drawn), `held` (by a referee), `disputed`, "
            "`minutes`, `next_drawn`."
        ),
    )
    def get(self, request: Request, round_id: str) -> Response:
        return Response(appeals.view(_round(round_id)))


class HoldDrawView(SignedInView):
    @extend_schema(
        operation_id="round_hold_draw",
        request=HoldInput,
        responses={200: OpenApiTypes.OBJECT, 409: dict, **ERRORS},
        description=(
            "A referee holds the next round's draw while a dispute is written (`draw-already-held`, "
            "`draw-done` 409; `forbidden` 403)."
        ),
    )
    def post(self, request: Request, round_id: str) -> Response:
        rnd = draw_control.hold(round_id, request.user, self.valid(HoldInput, request)["reason"])
        return Response(appeals.view(rnd))


class ReleaseDrawView(SignedInView):
    @extend_schema(
        operation_id="round_release_draw",
        request=None,
        responses={200: OpenApiTypes.OBJECT, 409: dict, **ERRORS},
        description="The hold ends; the next round is drawn if its period is over (`draw-not-held` 409).",
    )
    def post(self, request: Request, round_id: str) -> Response:
        rnd = draw_control.release(round_id, request.user)
        return Response(appeals.view(rnd))
