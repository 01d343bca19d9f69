"""Thin views: parse the request, resolve who is asking, call a service, render its result.

Everything a viewer receives about a match's state or events goes through the game's
`view` / `view_event` (the engine decides what each viewer may see)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cacho.api.errors import ApiError, exception_handler
from cacho.api.throttles import ApiThrottle, CommandThrottle
from cacho.engine.games import game_for
from cacho.engine.viewer import Viewer
from cacho.models import Event, Match, Seat
from cacho.services import match_reads, matches, players, presentation, referees, scorekeepers, seat_holders
from cacho.services.presentation import event_json
from cacho.services.state_cache import engine_events
from cacho.services.verify import verify_match

ENVELOPE = ("command_id", "expected_version")
MAX_EVENTS = 1000


# Every view of the match API. Its errors are the match API's own (`cacho.api.errors`: a
# missing thing is "no such match", bad input `invalid-request`), not the tournaments API's
# (`tournaments.api.base`): cacho sits below tournaments and knows nothing of its errors.
class CachoView(APIView):
    def get_exception_handler(self) -> Any:
        return exception_handler


# ---------------------------------------------------------------- helpers


def get_match(match_id: str) -> Match:
    try:
        key = uuid.UUID(str(match_id))
    except ValueError as exc:
        raise matches.MatchNotFound(match_id) from exc
    match = match_reads.match(key)
    if match is None:
        raise matches.MatchNotFound(match_id)
    return match


def json_object(request: Request) -> dict[str, Any]:
    data = request.data
    if not isinstance(data, dict):
        raise ApiError(400, "invalid-body", _("The request body must be a JSON object."))
    return dict(data)


def seat_of(request: Request, match: Match, seated: players.Seating | None = None) -> Seat | None:
    """The caller's seat: by account (its own, or the team's it partners), else the one the
    browser's session holds (`cacho.services.seat_holders`: a walk-in's seat link).
    `seated`: the match's `players.seating`, when the caller has read it."""
    user = request.user
    if user and user.is_authenticated:
        seated = seated if seated is not None else players.seating(match)
        seat = seated.seat_of(user.pk)
        if seat is not None:
            return seat
    held = seat_holders.session_seat(match.pk, getattr(request, "session", None))
    if held is None:
        return None
    seated = seated if seated is not None else players.seating(match)
    return next((seat for seat in seated.seats if seat.name == held), None)


def viewer_for(request: Request, match: Match, seated: players.Seating | None = None) -> Viewer:
    """Seated: that player; otherwise the match's referees (`cacho.services.referees`) see
    every die; everyone else is a spectator."""
    seat = seat_of(request, match, seated)
    if seat is not None:
        return Viewer.of_player(seat.name)
    if referees.referees(match.pk, request.user):
        return Viewer.referee()
    return Viewer.spectator()


def viewer_as(request: Request, match: Match, looking_as: str | None) -> Viewer:
    """The caller's viewer, or for a referee the one asked for (`spectator`, a seat name)."""
    viewer = viewer_for(request, match)
    if not looking_as or (looking_as == "referee" and viewer.kind == "referee"):
        return viewer
    if viewer.kind != "referee":
        raise ApiError(403, "view-not-allowed", _("Only a referee can look as someone else."))
    if looking_as == "spectator":
        return Viewer.spectator()
    if not Seat.objects.filter(match=match, name=looking_as).exists():
        raise ApiError(400, "view-unknown", _("Look as the spectator or one of the match's players."))
    return Viewer.of_player(looking_as)


def user_id_of(request: Request) -> Any:
    return request.user.pk if request.user and request.user.is_authenticated else None


def match_json(match: Match, request: Request) -> dict[str, Any]:
    """The match as the caller may see it, its seats read once for both."""
    seated = players.seating(match)
    user_id = user_id_of(request)
    seats = presentation.seats_json(match, user_id, seated)
    return presentation.match_json(match, viewer_for(request, match, seated), user_id, seats)


# ---------------------------------------------------------------- views


CreateMatchSerializer = inline_serializer(
    "CreateMatch",
    {
        "ruleset": serializers.CharField(),
        "players": serializers.ListField(child=serializers.CharField(max_length=64)),
        "options": serializers.DictField(required=False),
        "turn_seconds": serializers.IntegerField(required=False),
        "seat": serializers.IntegerField(required=False),
    },
)
CommandSerializer = inline_serializer(
    "MatchCommand",
    {
        "command_id": serializers.CharField(max_length=64),
        "expected_version": serializers.IntegerField(required=False),
        "type": serializers.CharField(),
    },
)


class MatchListView(CachoView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=CreateMatchSerializer, responses={201: dict})
    def post(self, request: Request) -> Response:
        """Create a friendly match; `seat` (optional) seats the creator."""
        data = json_object(request)
        unknown = sorted(set(data) - {"ruleset", "players", "options", "turn_seconds", "seat"})
        if unknown:
            raise ApiError(400, "unknown-field", _("Unknown field(s): %s") % ", ".join(unknown))
        ruleset = data.get("ruleset")
        players = data.get("players")
        options = data.get("options", {})
        turn_seconds = data.get("turn_seconds", 30)
        seat = data.get("seat")
        if not isinstance(ruleset, str):
            raise ApiError(400, "invalid-field", _("ruleset must be a string"))
        if (
            not isinstance(players, list)
            or not 2 <= len(players) <= 10
            or not all(isinstance(p, str) and 0 < len(p) <= 64 for p in players)
        ):
            raise ApiError(400, "invalid-field", _("players must be a list of 2 to 10 names"))
        if not isinstance(options, dict):
            raise ApiError(400, "invalid-field", _("options must be an object"))
        if type(turn_seconds) is not int or not 5 <= turn_seconds <= 3600:
            raise ApiError(400, "invalid-field", _("turn_seconds must be an integer from 5 to 3600"))
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(players)):
            raise ApiError(400, "invalid-field", _("seat must be the index of a player"))
        match = matches.create_match(
            ruleset, players, options=options, turn_seconds=turn_seconds, created_by=request.user
        )
        if seat is not None:
            matches.take_seat(match.pk, seat, request.user)
        match.refresh_from_db()
        return Response(match_json(match, request), status=status.HTTP_201_CREATED)


class MatchDetailView(CachoView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, match_id: str) -> Response:
        """The match as the caller may see it."""
        return Response(match_json(get_match(match_id), request))


class SeatView(CachoView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, match_id: str, index: int) -> Response:
        """Take a free seat of a friendly match."""
        match = get_match(match_id)
        if match.tournament_ref:
            # A tournament seats its entries itself; a free seat there is a guest's, claimed
            # only through that guest's seat link.
            raise ApiError(409, "seat-assigned", _("The tournament assigns the seats of this match."))
        try:
            matches.take_seat(match.pk, index, request.user)
        except LookupError as exc:
            raise ApiError(404, "no-such-seat", _("This match has no such seat.")) from exc
        except PermissionError as exc:
            code = str(exc)
            message = _("That seat is taken.") if code == "seat-taken" else _("You already hold a seat.")
            raise ApiError(409, code, message) from exc
        return Response(match_json(match, request))


class CommandView(CachoView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiThrottle, CommandThrottle]  # moves per user: `commands` (cacho.edge.limits)

    @extend_schema(request=CommandSerializer, responses={201: dict, 200: dict})
    def post(self, request: Request, match_id: str) -> Response:
        """Send a command for your seat: `{"command_id", "expected_version"?, "type", ...}`."""
        match = get_match(match_id)
        data = json_object(request)
        command_id = data.get("command_id")
        if not isinstance(command_id, str) or not 0 < len(command_id) <= 64:
            raise ApiError(400, "invalid-command-id", _("command_id must be a string of 1 to 64 characters"))
        expected = data.get("expected_version")
        if expected is not None and (type(expected) is not int or expected < 0):
            raise ApiError(400, "invalid-expected-version", _("expected_version must be a whole number"))
        seat = seat_of(request, match)
        if seat is None:
            raise ApiError(403, "not-seated", _("Only a seated player sends commands."))
        payload = {key: value for key, value in data.items() if key not in ENVELOPE}
        result = matches.submit(match.pk, seat.name, payload, command_id, expected, f"user:{request.user.pk}")
        game = game_for(match.ruleset)
        state = matches.state_after(match, result, game)
        # The sender sees the events from its seat (`viewer_for`): a command binds no seat
        # and frees none, so the seat found above is still the caller's.
        viewer = Viewer.of_player(seat.name)
        return Response(
            {
                "version": result.version,
                "repeated": result.repeated,
                "events": [event_json(event, game, state, viewer) for event in result.events],
            },
            status=status.HTTP_200_OK if result.repeated else status.HTTP_201_CREATED,
        )


class EventsView(CachoView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="version to start after (default 0)"),
            OpenApiParameter(
                "as",
                str,
                description="referees only: look as `spectator` or as the seated player of that name",
            ),
        ],
        responses={200: dict},
    )
    def get(self, request: Request, match_id: str) -> Response:
        """The events after a version, each as the caller may see it (a referee reviewing a
        dispute may look as a spectator or as any seated player)."""
        match = get_match(match_id)
        raw = request.query_params.get("after", "0")
        try:
            after = int(raw)
        except ValueError as exc:
            raise ApiError(400, "invalid-after", _("after must be a whole number")) from exc
        if after < 0:
            raise ApiError(400, "invalid-after", _("after must be a whole number"))
        game = game_for(match.ruleset)
        state = matches.load_state(match, game)
        viewer = viewer_as(request, match, request.query_params.get("as"))
        events = Event.objects.filter(stream=match, version__gt=after).order_by("version")[:MAX_EVENTS]
        return Response(
            {
                "version": match.version,
                "events": [event_json(event, game, state, viewer) for event in events],
            }
        )


class RecordView(CachoView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, match_id: str) -> Response:
        """The match record (`cacho-match/1`): anyone once finished, referees while live."""
        match = get_match(match_id)
        if match.status != Match.STATUS_FINISHED and viewer_for(request, match).kind != "referee":
            raise ApiError(403, "match-not-finished", _("A live match's record is for referees only."))
        game = game_for(match.ruleset)
        return Response(game.write_record(engine_events(match, game)))


class VerifyView(CachoView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: dict})
    def get(self, request: Request, match_id: str) -> Response:
        """Recompute the hash chain and every revealed round's dice from public data."""
        return Response(verify_match(get_match(match_id)))


class ImportView(CachoView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=dict, responses={201: dict})
    def post(self, request: Request) -> Response:
        """Import a physical table's record (a club's scorekeepers, organisers and referees);
        nothing is stored unless the engine accepts it. To link it to a tournament table,
        use `POST /api/tables/<id>/import`."""
        if not scorekeepers.may_import(request.user):
            message = _("Only a club's scorekeepers, organisers and referees import records.")
            raise ApiError(403, "import-not-allowed", message)
        record = json_object(request)
        match = matches.import_record(record, created_by=request.user, actor=f"import:user:{request.user.pk}")
        return Response(match_json(match, request), status=status.HTTP_201_CREATED)
