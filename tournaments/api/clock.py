"""The API of the round clock: read by a round, by a tournament (its latest round) or by a
match (the round it is a table of); started, paused, resumed, extended or reset by the
round's organisers and referees. Thin views over `tournaments.services.clock`."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, ApiView, object_id
from tournaments.errors import NotFound
from tournaments.models import Round
from tournaments.services import clock, seat_link_desk


class ClockInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(clock.ACTIONS))
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="start: start even though guest seats wait for their player (`unclaimed-guest-seats`).",
    )
    minutes = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="start: the round's length; extend: more (or, negative, less).",
    )


class ClockSerializer(serializers.Serializer):
    round_id = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=["none", "idle", "running", "paused", "finished"])
    seconds = serializers.IntegerField(allow_null=True, help_text="Its length, extensions included.")
    remaining_ms = serializers.IntegerField(help_text="Left at `server_time`; negative in overtime.")
    ends_at = serializers.DateTimeField(allow_null=True)
    server_time = serializers.DateTimeField()


class RoundClockView(ApiView):
    @extend_schema(operation_id="round_clock", responses={200: ClockSerializer, **ERRORS})
    def get(self, request: Request, round_id: str) -> Response:
        rnd = Round.objects.filter(pk=object_id(round_id, _("No such round."))).first()
        if rnd is None:
            raise NotFound(_("No such round."))
        return Response(clock.clock_view(rnd))

    @extend_schema(
        operation_id="round_clock_act",
        request=ClockInput,
        responses={200: ClockSerializer, **ERRORS},
        description=(
            "Start (`minutes`), pause, resume, extend (`minutes`, negative to take time back) or "
            "reset the round's clock (organisers, referees). Each action is logged. Starting the "
            "clock while guest seats of the round's online tables wait for their player answers "
            "409 `unclaimed-guest-seats` with `seats` ([{table, entry, name}]) and changes "
            "nothing; send `confirm: true` to start anyway."
        ),
    )
    def post(self, request: Request, round_id: str) -> Response:
        data = self.valid(ClockInput, request)
        if data["action"] == "start" and not data["confirm"]:
            try:
                seat_link_desk.warn_on_clock_start(round_id, request.user, data.get("minutes"))
            except seat_link_desk.UnclaimedSeats as warning:
                body = {"code": warning.code, "message": warning.message, "seats": warning.seats}
                return Response(body, status=warning.status)
        rnd = clock.act(round_id, request.user, data["action"], data.get("minutes"))
        return Response(clock.clock_view(rnd))


class TournamentClockView(ApiView):
    @extend_schema(operation_id="tournament_clock", responses={200: ClockSerializer, **ERRORS})
    def get(self, request: Request, tournament_id: str) -> Response:
        """The clock of the tournament's latest round (`state: none` before the first round)."""
        return Response(clock.clock_view(clock.latest_round(tournament_id)))


class MatchClockView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="match_clock", responses={200: ClockSerializer})
    def get(self, request: Request, match_id: str) -> Response:
        """The clock of the round this match is a table of (`state: none` for a casual match)."""
        return Response(clock.clock_view(clock.round_of_match(match_id)))
