"""The seasons' and leagues' API (docs/seasons.md): thin views over `tournaments.seasons`;
errors `{"code", "message"}` (and `field`) as everywhere in this API."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments.api.base import ERRORS, ApiView
from tournaments.errors import NotFound
from tournaments.exports import XLSX
from tournaments.seasons import exports, leagues, qualification, seasons
from tournaments.seasons.models import League, LeagueClub, Season


class ScoringFields(serializers.Serializer):
    name = serializers.CharField(required=False)
    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)
    selection = serializers.ChoiceField(choices=[Season.PICKED, Season.DATES], required=False)
    tournaments = serializers.ListField(child=serializers.IntegerField(), required=False)
    points = serializers.ListField(child=serializers.FloatField(min_value=0), required=False)
    participation = serializers.FloatField(required=False, min_value=0)
    best_of = serializers.IntegerField(required=False, allow_null=True, min_value=1)


class SeasonInput(ScoringFields):
    club = serializers.IntegerField(required=False)
    league = serializers.IntegerField(required=False)


class QualifyInput(serializers.Serializer):
    tournament = serializers.IntegerField()
    count = serializers.IntegerField(min_value=1)


class LeagueInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.CharField(max_length=80, required=False, allow_blank=True)


class LeagueClubInput(serializers.Serializer):
    club = serializers.IntegerField()


class LeagueRoleInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=["owner", "organiser", "referee"])


def _raw(request: Request, fields: list[str]) -> dict[str, Any]:
    """The fields the client sent, as JSON values (the services check them: a number given
    as text is refused there with the field's own code)."""
    data = request.data if isinstance(request.data, dict) else {}
    return {k: data[k] for k in fields if k in data}


def season_summary(season: Season, user: Any = None) -> dict[str, Any]:
    return {
        "id": season.pk,
        "name": season.name,
        "club": season.club_id,
        "league": season.league_id,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "selection": season.selection,
        "tournaments": list(season.picked.values_list("tournament_id", flat=True)),
        "points": season.points,
        "participation": season.participation,
        "best_of": season.best_of,
        "final": season.final_id,
        "qualified": season.qualified,
        "counted": list(seasons.counted(season).values_list("pk", flat=True)),
        "can_manage": seasons.manages(user, season),
        "url": f"/seasons/{season.pk}/",
    }


EDITABLE = [*seasons.EDITABLE, "tournaments"]


class SeasonsView(ApiView):
    @extend_schema(operation_id="seasons_list", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        found = Season.objects.all()
        for key in ("club", "league"):
            value = request.query_params.get(key)
            if value is not None and plain_digits(value):
                found = found.filter(**{f"{key}_id": int(value)})
        return Response([season_summary(s, request.user) for s in found])

    @extend_schema(
        operation_id="seasons_create",
        request=SeasonInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description="A club's season (`club`: its owners, organisers) or a league's (`league`: the "
        "league's). `selection` `picked` counts `tournaments`, `dates` every tournament of the club "
        "(the league's member clubs) started in the dates. Scoring: `points` by place, 1st first "
        "(default 25-18-15-12-10-8-6-4-2-1), `participation` per evening, `best_of` evenings (empty: all).",
    )
    def post(self, request: Request) -> Response:
        # The shape and the fields are checked here; the services read the values as sent (`_raw`).
        self.valid(SeasonInput, request)
        data = _raw(request, EDITABLE)
        season = seasons.create_season(
            request.user, club=request.data.get("club"), league=request.data.get("league"), **data
        )
        return Response(season_summary(season, request.user), status=201)


class SeasonView(ApiView):
    @extend_schema(operation_id="season_read", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, season_id: str) -> Response:
        return Response(season_summary(seasons.get_season(season_id), request.user))

    @extend_schema(
        operation_id="season_update",
        request=ScoringFields,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Edit the name, dates, selection, picked tournaments or scoring; the standings "
        "are projected again at once.",
    )
    def patch(self, request: Request, season_id: str) -> Response:
        self.valid(ScoringFields, request, partial=True)
        season = seasons.update_season(season_id, request.user, **_raw(request, EDITABLE))
        return Response(season_summary(season, request.user))


class SeasonStandingsView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="season_standings",
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="The season's standings: each line's rank, total, evenings (place, points, "
        "counted) and won tie in the request's language (`tiebreak_text`); the evenings with their "
        "log heads; `head_hash`, the stamp of the scoring and the evenings' heads.",
    )
    def get(self, request: Request, season_id: str) -> Response:
        return Response(exports.build(seasons.get_season(season_id)).as_dict())


def _download(body: str | bytes, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class SeasonCsvView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="season_standings_csv",
        responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS},
        description="The standings as one table, header first. File name `<season>-<first 12 hex of "
        "the stamp>.csv`.",
    )
    def get(self, request: Request, season_id: str) -> HttpResponse:
        export = exports.build(seasons.get_season(season_id))
        return _download(exports.to_csv(export), "text/csv; charset=utf-8", exports.filename(export, "csv"))


class SeasonXlsxView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="season_standings_xlsx",
        responses={(200, XLSX): OpenApiTypes.BINARY, **ERRORS},
        description="The CSV's table, then a metadata sheet (scoring, stamp, each evening's log head).",
    )
    def get(self, request: Request, season_id: str) -> HttpResponse:
        export = exports.build(seasons.get_season(season_id))
        return _download(exports.to_xlsx(export), XLSX, exports.filename(export, "xlsx"))


class SeasonFinalView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="season_final",
        request=QualifyInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Draw the season's top `count` into the final `tournament` in one step: each "
        "registered (accounts and guests), seeded in the standings' order. The final is an empty "
        "tournament of the season's club (a member club of its league) seeded by hand. Refused with "
        "nothing stored: `qualify-tie-at-cut` (a shared place would be split), `final-has-entries`, "
        "`final-not-manual`, `season-final-set`, `final-outside-season`, `qualify-count-invalid`.",
    )
    def post(self, request: Request, season_id: str) -> Response:
        self.valid(QualifyInput, request)
        entries = qualification.qualify(
            season_id, request.data["tournament"], request.user, int(request.data["count"])
        )
        return Response(
            {
                "tournament": int(request.data["tournament"]),
                "entries": [{"id": e.pk, "name": e.name, "seed": i} for i, e in enumerate(entries, start=1)],
            }
        )


# ---------------------------------------------------------------- leagues


def league_view(league: League, user: Any = None) -> dict[str, Any]:
    return {
        "id": league.pk,
        "name": league.name,
        "slug": league.slug,
        "clubs": [
            {"id": row.club_id, "name": row.club.name, "status": row.status}
            for row in LeagueClub.objects.filter(league=league).select_related("club")
        ],
        "roles": [
            {"username": r.user.get_username(), "role": r.role}
            for r in league.roles.select_related("user").order_by("user__username", "role")
        ],
        "seasons": list(league.seasons.values_list("pk", flat=True)),
        "my_roles": sorted(leagues.roles_of(user, league)),
    }


class LeaguesView(ApiView):
    @extend_schema(operation_id="leagues_list", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        return Response([league_view(league, request.user) for league in League.objects.all()])

    @extend_schema(
        operation_id="leagues_create",
        request=LeagueInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description="A league; its creator owns it.",
    )
    def post(self, request: Request) -> Response:
        self.valid(LeagueInput, request)
        league = leagues.create_league(request.data["name"], request.user, request.data.get("slug") or "")
        return Response(league_view(league, request.user), status=201)


class LeagueView(ApiView):
    @extend_schema(operation_id="league_read", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, league_id: str) -> Response:
        return Response(league_view(leagues.get_league(league_id), request.user))


class LeagueClubsView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="league_invite_club",
        request=LeagueClubInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description="Invite a club (league owners, organisers); it joins when its owner accepts.",
    )
    def post(self, request: Request, league_id: str) -> Response:
        self.valid(LeagueClubInput, request)
        leagues.invite_club(league_id, request.data["club"], request.user)
        return Response(league_view(leagues.get_league(league_id), request.user), status=201)


class LeagueAnswerView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="league_club_answer",
        request=None,
        responses={200: OpenApiTypes.OBJECT, 403: OpenApiResponse(description="`owner-only`"), **ERRORS},
        description="The club's owner accepts (`accept`) or declines (`decline`) the invitation.",
    )
    def post(self, request: Request, league_id: str, club_id: str, answer: str) -> Response:
        if answer not in ("accept", "decline"):
            raise NotFound(_("Accept or decline."))
        leagues.answer_invitation(league_id, club_id, request.user, accept=answer == "accept")
        return Response(league_view(leagues.get_league(league_id), request.user))


class LeagueRolesView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="league_role_grant",
        request=LeagueRoleInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Give a league role (owners, organisers; the owner role: owners).",
    )
    def post(self, request: Request, league_id: str) -> Response:
        self.valid(LeagueRoleInput, request)
        roles = leagues.set_role(league_id, request.data["username"], request.data["role"], request.user)
        return Response({"username": request.data["username"], "roles": roles})

    @extend_schema(
        operation_id="league_role_revoke",
        request=LeagueRoleInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Take a league role back (a league keeps an owner: `last-owner`).",
    )
    def delete(self, request: Request, league_id: str) -> Response:
        self.valid(LeagueRoleInput, request)
        roles = leagues.set_role(
            league_id, request.data["username"], request.data["role"], request.user, grant=False
        )
        return Response({"username": request.data["username"], "roles": roles})


__all__ = [
    "LeagueAnswerView",
    "LeagueClubsView",
    "LeagueRolesView",
    "LeagueView",
    "LeaguesView",
    "SeasonCsvView",
    "SeasonFinalView",
    "SeasonStandingsView",
    "SeasonView",
    "SeasonXlsxView",
    "SeasonsView",
]
