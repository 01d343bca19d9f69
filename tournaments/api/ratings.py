"""The ratings API: leaderboards (overall or a club's), a player's ratings (history and
head-to-head) and, for a tournament's organisers, the entries' platform ratings and their
use as seeding ratings. Thin views over `tournaments.ratings`; errors as everywhere in this
API (`{"code", "message"}`): `rating-family-unknown` (400), `player-unknown` and
`not-found` (404), `forbidden` (403), `registration-closed` (400)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments.api.base import ERRORS, ApiView
from tournaments.errors import NotFound, TournamentError
from tournaments.models import Club, Tournament
from tournaments.ratings import reading
from tournaments.reads.lobby import player
from tournaments.services.rating_seeds import fill_ratings


class RatingRow(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    rating = serializers.FloatField(help_text="The conservative rating: mu - 3 sigma.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    tables = serializers.IntegerField(help_text="Rated tables played.")
    provisional = serializers.BooleanField(
        help_text="Fewer than 5 rated tables, or sigma above 8 (a newcomer has 8.33)."
    )


class Board(serializers.Serializer):
    family = serializers.CharField()
    family_name = serializers.CharField()
    club = serializers.IntegerField(allow_null=True)
    results = RatingRow(many=True)


class HistoryPoint(serializers.Serializer):
    number = serializers.IntegerField()
    rating = serializers.FloatField()
    placement = serializers.IntegerField()
    table_size = serializers.IntegerField()
    tournament = serializers.CharField()


class HeadToHead(serializers.Serializer):
    opponent = serializers.CharField()
    tables = serializers.IntegerField()
    won = serializers.IntegerField(help_text="Tables where the player placed above the opponent.")
    lost = serializers.IntegerField()
    tied = serializers.IntegerField()


class FamilyRating(RatingRow):
    family = serializers.CharField()
    family_name = serializers.CharField()
    history = HistoryPoint(many=True)
    head_to_head = HeadToHead(many=True)


class PlayerRatings(serializers.Serializer):
    username = serializers.CharField()
    ratings = FamilyRating(many=True)


class EntryRating(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    seeding_rating = serializers.FloatField(allow_null=True, help_text="What seeding by rating uses.")
    platform_rating = serializers.FloatField(allow_null=True)
    tables = serializers.IntegerField()
    provisional = serializers.BooleanField()


def _family(value: str | None) -> str:
    # Absent means the default; present but empty is a family nobody named.
    family = reading.FAMILIES[0] if value is None else value
    if family not in reading.FAMILIES:
        raise TournamentError("rating-family-unknown", _("The game family is dudo or alalay."))
    return family


def _club(value: str | None) -> int | None:
    if not value:
        return None
    found = Club.objects.filter(pk=int(value)).first() if plain_digits(value) else None
    if found is None:
        found = Club.objects.filter(slug=value).first()
    if found is None:
        raise NotFound(_("No such club."))
    return found.pk


class LeaderboardView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="ratings_leaderboard",
        parameters=[
            OpenApiParameter("family", str, enum=list(reading.FAMILIES), description="Default: dudo."),
            OpenApiParameter("club", str, description="A club's id or slug: its members only."),
        ],
        responses={200: Board, **ERRORS},
        summary="A leaderboard: the best 100 ratings of a game family",
    )
    def get(self, request: Request) -> Response:
        family = _family(request.query_params.get("family"))
        club = _club(request.query_params.get("club"))
        return Response(
            {
                "family": family,
                "family_name": reading.family_label(family),
                "club": club,
                "results": reading.leaderboard(family, club),
            }
        )


class PlayerRatingsView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_ratings",
        responses={200: PlayerRatings, 404: ERRORS[404]},
        summary="A player's ratings: one per game family, with history and head-to-head",
    )
    def get(self, request: Request, username: str) -> Response:
        user = player(username)
        if user is None:
            raise TournamentError("player-unknown", _("No such player."), status=404)
        return Response({"username": user.get_username(), "ratings": reading.player_ratings(user)})


def _tournament(value: str) -> Tournament:
    found = Tournament.objects.filter(pk=int(value)).first() if plain_digits(value) else None
    if found is None:
        raise NotFound(_("No such tournament."))
    return found


class TournamentRatingsView(ApiView):
    @extend_schema(
        operation_id="tournament_platform_ratings",
        responses={200: EntryRating(many=True), 404: ERRORS[404]},
        summary="The entries' platform ratings (provisional ones marked) beside their seeding ratings",
    )
    def get(self, request: Request, tournament_id: str) -> Response:
        return Response(reading.entry_ratings(_tournament(tournament_id)))

    @extend_schema(
        operation_id="tournament_fill_ratings",
        request=None,
        responses={200: EntryRating(many=True), **ERRORS},
        summary="Fill the seeding ratings from the platform ratings (organisers, before the start)",
    )
    def post(self, request: Request, tournament_id: str) -> Response:
        return Response(fill_ratings(_tournament(tournament_id).pk, request.user))
