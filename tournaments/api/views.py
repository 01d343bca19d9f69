"""Thin API views: parse input, call the write path (`tournaments.services`), shape output.
Errors and the reading of a body as everywhere in this API (`tournaments.api.base`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.edge.inputs import plain_digits
from tournaments import exports, services
from tournaments.api import serializers as s
from tournaments.api.base import ERRORS, ApiView, ApiViewSet
from tournaments.clubs import members
from tournaments.clubs import members as club_members
from tournaments.clubs.roles import has_role
from tournaments.models import Club, Entry, Membership, Tournament
from tournaments.reads import catalogue
from tournaments.services import desk, standings, team_members

STAGE_PARAMETER = OpenApiParameter(
    "stage", int, description="A stage's number (1 for the first); default: the stage in play, else the last."
)


def _stage_number(request: Request) -> int | None:
    value = request.query_params.get("stage")
    if value is None:
        return None
    if not plain_digits(value) or not 1 <= int(value) <= 1000:
        raise services.TournamentError("stage-invalid", _("A stage is given by its number, from 1."))
    return int(value)


class Base(ApiViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def _object_id(self) -> int:
        try:
            return int(self.kwargs["pk"])
        except (TypeError, ValueError) as exc:
            raise services.NotFound(_("Not found.")) from exc


class ClubViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Club.objects.all()
    serializer_class = s.ClubSerializer

    @extend_schema(request=s.ClubSerializer, responses={201: s.ClubSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        v = self.valid(s.ClubSerializer, request)
        club = club_members.create_club(v["name"], v.get("slug", ""), request.user, v.get("description", ""))
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.ClubUpdate, responses={200: s.ClubSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Edit the club's name, slug or description (owners, organisers; in the club's log)."""
        data = self.valid(s.ClubUpdate, request)
        club = members.update_club(self._object_id(), request.user, **data)
        return Response(s.ClubSerializer(club).data)


class TournamentViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Tournament.objects.select_related("club").all()
    serializer_class = s.TournamentSerializer

    @extend_schema(request=s.TournamentInput, responses={201: s.TournamentSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        v = self.valid(s.TournamentInput, request)
        tournament = services.create_tournament(
            v.pop("club"),
            request.user,
            name=v["name"],
            ruleset=v["ruleset"],
            options=v.get("options"),
            turn_seconds=v["turn_seconds"],
            entry_type=v["entry_type"],
            team_size=v["team_size"],
            checkin_deadline=v.get("checkin_deadline"),
            seeding_method=v["seeding"],
            standings=v.get("standings"),
            stages=[dict(x) for x in v["stages"]] if v.get("stages") else None,
            appeal_minutes=v["appeal_minutes"],
            round_appeal_minutes=v["round_appeal_minutes"],
            physical=v["physical"],
            rated=v["rated"],
            time_policy=v["time_policy"],
            call_time_automatically=v["call_time_automatically"],
            player_chat=v["player_chat"],
        )
        return Response(
            s.TournamentSerializer(tournament, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=s.TournamentUpdate, responses={200: s.TournamentSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid(s.TournamentUpdate, request)
        tournament = services.update_settings(self._object_id(), request.user, **data)
        return Response(s.TournamentSerializer(tournament, context={"request": request}).data)

    @extend_schema(request=s.StartInput, responses={200: s.TournamentSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid(s.StartInput, request)
        tournament = services.start_tournament(
            self._object_id(),
            request.user,
            manual_order=data["manual_order"],
            close_check_in=data["close_check_in"],
        )
        return Response(s.TournamentSerializer(tournament, context={"request": request}).data)

    @extend_schema(methods=["get"], responses={200: s.EntrySerializer(many=True)}, description="The entries.")
    @extend_schema(
        methods=["post"],
        request=s.EntryInput,
        responses={201: s.EntrySerializer, **ERRORS},
        description="Register: a player registers themself (omit `user`); organisers register anyone.",
    )
    @action(detail=True, methods=["get", "post"])
    def entries(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            rows = tournament.entries.select_related("user").prefetch_related("members__user")
            rows = rows.order_by("seed", "pk")
            return Response(s.EntrySerializer(rows, many=True).data)
        v = self.valid(s.EntryInput, request)
        user: Any = None
        if v.get("username"):
            user = members.user_by_username(v["username"])
        elif not has_role(request.user, tournament.club_id, Membership.MANAGERS):
            user = request.user  # a player registers themself; an organiser, a guest
        entry = services.register(
            tournament.pk,
            request.user,
            name=v.get("name") or (user.get_username() if user is not None else ""),
            user=user,
            members=v["members"],
            rating=v.get("rating"),
        )
        return Response(s.EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.RoundSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        rows = tournament.rounds.select_related("stage").prefetch_related("tables__seats__entry")
        return Response(s.RoundSerializer(rows, many=True).data)

    @extend_schema(responses={200: s.EventSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def events(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        return Response(s.EventSerializer(tournament.events.order_by("version"), many=True).data)

    @extend_schema(
        responses={200: s.RankingSerializer},
        description=(
            "The final ranking (empty until the tournament has finished): everyone who played, best "
            "first, with shared places; the page, the API and every export show this one ranking."
        ),
    )
    @action(detail=True, methods=["get"])
    def ranking(self, request: Request, pk: str | None = None) -> Response:
        tournament = self.get_object()
        names = {e.pk: e.name for e in tournament.entries.all()}
        at_time = standings.at_time_counts(tournament)
        lineup = team_members.lineups(tournament)
        placings = [
            {"place": p.place, "entry": p.entry_id, "name": names.get(p.entry_id, "")}
            | ({"members": lineup.get(p.entry_id, [])} if lineup else {})
            | ({"decided_at_time": at_time[p.entry_id]} if p.entry_id in at_time else {})
            for p in standings.final_ranking(tournament)
        ]
        return Response(
            s.RankingSerializer(
                {
                    "finished": tournament.status == Tournament.FINISHED,
                    "head_hash": tournament.head_hash,
                    "ranking": placings,
                }
            ).data
        )

    def _export(self, request: Request) -> exports.StandingsExport:
        return exports.build(self.get_object(), _stage_number(request))

    @staticmethod
    def _download(body: str | bytes, content_type: str, name: str) -> HttpResponse:
        response = HttpResponse(body, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        parameters=[STAGE_PARAMETER],
        description="A stage's standings (default: the stage in play, else the last) with each row's "
        "tiebreak reason in the request's language (`tiebreak_text`), the final ranking, and the "
        "`metadata` (tournament, club, ruleset, options hash, log head and version, stages).",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        return Response(self._export(request).as_dict())

    @extend_schema(
        responses={(200, "text/csv"): OpenApiTypes.STR, **ERRORS},
        parameters=[STAGE_PARAMETER],
        description="One table, header row first, in the request's language: the final ranking once "
        "the tournament is over (place, entry, …), else the stage's standings. File name: "
        "`<tournament>-<first 12 hex of the log head>.csv`.",
    )
    @action(detail=True, methods=["get"], url_path="standings/csv")
    def standings_csv(self, request: Request, pk: str | None = None) -> HttpResponse:
        export = self._export(request)
        return self._download(
            exports.to_csv(export), "text/csv; charset=utf-8", exports.filename(export, "csv")
        )

    @extend_schema(
        responses={(200, exports.XLSX): OpenApiTypes.BINARY, **ERRORS},
        parameters=[STAGE_PARAMETER],
        description="The CSV's table as the first sheet, a sheet per started stage, a metadata sheet.",
    )
    @action(detail=True, methods=["get"], url_path="standings/xlsx")
    def standings_xlsx(self, request: Request, pk: str | None = None) -> HttpResponse:
        export = self._export(request)
        return self._download(exports.to_xlsx(export), exports.XLSX, exports.filename(export, "xlsx"))

    @extend_schema(responses={(200, "text/html"): OpenApiTypes.STR, **ERRORS}, parameters=[STAGE_PARAMETER])
    @action(detail=True, methods=["get"], url_path="standings/print")
    def standings_print(self, request: Request, pk: str | None = None) -> HttpResponse:
        context = exports.print_context(self._export(request))
        return render(request._request, "tournaments/standings_print.html", context)


class EntryViewSet(Base, mixins.RetrieveModelMixin):
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    queryset = Entry.objects.prefetch_related("members__user").all()
    serializer_class = s.EntrySerializer

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        return Response(s.EntrySerializer(services.check_in(self._object_id(), request.user)).data)

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        return Response(s.EntrySerializer(services.withdraw(self._object_id(), request.user)).data)

    @extend_schema(
        request=None,
        responses={200: s.EntrySerializer, **ERRORS},
        description="Bring a withdrawn entry back (organisers, referees): it plays on from the next round.",
    )
    @action(detail=True, methods=["post"])
    def reinstate(self, request: Request, pk: str | None = None) -> Response:
        return Response(s.EntrySerializer(services.reinstate(self._object_id(), request.user)).data)

    @extend_schema(
        request=s.EntryUpdate,
        responses={200: s.EntrySerializer, **ERRORS},
        description=(
            "Rename an entry (its user or the organisers; a label: results are kept by id) or set its "
            "seeding rating (organisers, before the start)."
        ),
    )
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid(s.EntryUpdate, request)
        entry_id = self._object_id()
        if "name" in data:
            services.rename_entry(entry_id, request.user, data["name"])
        if "rating" in data:
            services.set_rating(entry_id, request.user, data["rating"])
        entry = Entry.objects.prefetch_related("members__user").filter(pk=entry_id).first()
        if entry is None:  # (an entry nobody may change: the services said nothing of it)
            raise services.NotFound(_("Not found."))
        return Response(s.EntrySerializer(entry).data)

    @extend_schema(
        request=None,
        responses={204: None, **ERRORS},
        description="Remove an entry before the start (organisers), as if it had never registered.",
    )
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        desk.remove_entry(self._object_id(), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        request=s.ForfeitInput,
        responses={200: s.TableSerializer, **ERRORS},
        description="The entry forfeits its seat at a table in play (a no-show) and plays on afterwards.",
    )
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        data = self.valid(s.ForfeitInput, request)
        table = services.forfeit_table(data["table"], self._object_id(), request.user)
        return Response(s.TableSerializer(table).data)


class RulesetsView(ApiView):
    """The options catalogue: public, translated into the request's language."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="rulesets_list",
        responses={200: s.RulesetSerializer(many=True)},
        description=(
            "Every ruleset with its game and its options: allowed values, default, a title and "
            "a plain-language explanation in the request's language (`Accept-Language`, or the "
            "language cookie). Send the option names and values as a tournament's `options`."
        ),
    )
    def get(self, request: Request) -> Response:
        return Response(s.RulesetSerializer(catalogue.rulesets(), many=True).data)


class MyMembershipsView(ApiView):
    """The clubs the logged-in user belongs to, with every role they hold there."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="me_memberships_list",
        responses={200: s.MyMembershipSerializer(many=True), 401: ERRORS[403], 403: ERRORS[403]},
        description="The clubs you belong to (by club name), each with your roles in it.",
    )
    def get(self, request: Request) -> Response:
        rows = (
            Membership.objects.filter(user=request.user).select_related("club").order_by("club__name", "club")
        )
        names = dict(Membership.ROLE_CHOICES)
        order = [r for r, _label in Membership.ROLE_CHOICES]
        clubs: dict[int, dict[str, Any]] = {}
        for row in rows:
            item = clubs.setdefault(row.club_id, {"club": row.club, "roles": []})
            item["roles"].append(row.role)
        result = []
        for item in clubs.values():
            roles = sorted(item["roles"], key=order.index)
            result.append(
                {
                    "club": item["club"],
                    "roles": roles,
                    "role_names": [str(names[r]) for r in roles],
                    "manages": any(r in Membership.MANAGERS for r in roles),
                }
            )
        return Response(s.MyMembershipSerializer(result, many=True).data)


__all__ = ["ClubViewSet", "EntryViewSet", "MyMembershipsView", "RulesetsView", "TournamentViewSet"]


class MatchTournamentView(ApiView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="match_tournament", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request, match_id: str) -> Response:
        """Where a match sits in its tournament (`tournament: null` outside one): the tournament,
        round and table, and the caller's next match there, if any (by account, or by the
        walk-in entry the browser's seat link follows). Read-only, public."""
        from tournaments.reads import table_links  # here, so this addition stays at the end of the file

        return Response(table_links.links(match_id, request.user, getattr(request, "session", None)))
