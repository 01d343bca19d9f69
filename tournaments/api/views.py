"""Thin API views: parse input, call the write path (`tournaments.services`), shape output.

Errors are `{"code": stable_code, "message": text}`: the write path's `TournamentError`
(400/403/404), DRF validation (400 `invalid_input`), authentication (401/403); never a 500
on bad input.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import catalogue, exports, services
from tournaments.api import serializers as s
from tournaments.models import Club, Entry, Membership, Tournament

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Bad input: {code, message}"),
    403: OpenApiResponse(s.ErrorSerializer, description="Not allowed for your role"),
    404: OpenApiResponse(s.ErrorSerializer, description="Not found"),
}


def _error(code: str, message: str, status_code: int, **extra: Any) -> Response:
    return Response({"code": code, "message": message, **extra}, status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, services.TournamentError):
        return _error(exc.code, exc.message, exc.status)
    if isinstance(exc, exceptions.ValidationError):
        return _error("invalid-input", _("The request is not valid."), 400, fields=exc.detail)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        return _error("not-authenticated", str(exc.detail), exc.status_code)
    if isinstance(exc, exceptions.PermissionDenied):
        return _error("forbidden", str(exc.detail), 403)
    if isinstance(exc, exceptions.NotFound):
        return _error("not-found", str(exc.detail), 404)
    if isinstance(exc, exceptions.MethodNotAllowed):
        return _error("method-not-allowed", str(exc.detail), 405)
    if isinstance(exc, exceptions.ParseError | exceptions.UnsupportedMediaType):
        return _error("malformed-request", str(exc.detail), exc.status_code)
    if isinstance(exc, exceptions.APIException):
        return _error("error", str(exc.detail), exc.status_code)
    return None


class Base(viewsets.GenericViewSet):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_exception_handler(self) -> Any:
        return exception_handler

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
        data = s.ClubSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.create_club(data.validated_data["name"], data.validated_data["slug"], request.user)
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.MemberInput, responses={201: s.MembershipSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def members(self, request: Request, pk: str | None = None) -> Response:
        data = s.MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(pk=data.validated_data["user"]).first()
        if user is None:
            raise services.TournamentError("user-unknown", _("No such user."))
        membership = services.add_member(self._object_id(), user, data.validated_data["role"], request.user)
        return Response(s.MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)


class TournamentViewSet(Base, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Tournament.objects.select_related("club").all()
    serializer_class = s.TournamentSerializer

    @extend_schema(request=s.TournamentInput, responses={201: s.TournamentSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        data = s.TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
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
        )
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TournamentUpdate, responses={200: s.TournamentSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        data = s.TournamentUpdate(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.update_settings(self._object_id(), request.user, **data.validated_data)
        return Response(s.TournamentSerializer(tournament).data)

    @extend_schema(request=s.StartInput, responses={200: s.TournamentSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        data = s.StartInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.start_tournament(
            self._object_id(), request.user, manual_order=data.validated_data["manual_order"]
        )
        return Response(s.TournamentSerializer(tournament).data)

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
            rows = tournament.entries.prefetch_related("members").order_by("seed", "pk")
            return Response(s.EntrySerializer(rows, many=True).data)
        data = s.EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        user: Any = request.user
        if v.get("user") is not None and v["user"] != request.user.pk:
            user = get_user_model().objects.filter(pk=v["user"]).first()
            if user is None:
                raise services.TournamentError("user-unknown", _("No such user."))
        entry = services.register(
            tournament.pk,
            request.user,
            name=v["name"],
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
        responses={200: OpenApiTypes.OBJECT}, description="Standings as JSON, stamped with the log head."
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        return Response(exports.build(self.get_object()).as_dict())

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings/csv")
    def standings_csv(self, request: Request, pk: str | None = None) -> HttpResponse:
        tournament = self.get_object()
        response = HttpResponse(
            exports.to_csv(exports.build(tournament)), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
        return response

    @extend_schema(responses={(200, exports.XLSX): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"], url_path="standings/xlsx")
    def standings_xlsx(self, request: Request, pk: str | None = None) -> HttpResponse:
        tournament = self.get_object()
        response = HttpResponse(exports.to_xlsx(exports.build(tournament)), content_type=exports.XLSX)
        response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.xlsx"'
        return response

    @extend_schema(responses={(200, "text/html"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings/print")
    def standings_print(self, request: Request, pk: str | None = None) -> HttpResponse:
        export = exports.build(self.get_object())
        context = {"export": export, "header": exports.header(export), "lines": exports.lines(export)}
        return render(request._request, "tournaments/standings_print.html", context)


class EntryViewSet(Base, mixins.RetrieveModelMixin):
    queryset = Entry.objects.prefetch_related("members").all()
    serializer_class = s.EntrySerializer

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        return Response(s.EntrySerializer(services.check_in(self._object_id(), request.user)).data)

    @extend_schema(request=None, responses={200: s.EntrySerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        return Response(s.EntrySerializer(services.withdraw(self._object_id(), request.user)).data)


class RulesetsView(APIView):
    """The options catalogue: public, translated into the request's language."""

    permission_classes = [permissions.AllowAny]

    def get_exception_handler(self) -> Any:
        return exception_handler

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


class MyMembershipsView(APIView):
    """The clubs the logged-in user belongs to, with every role they hold there."""

    permission_classes = [permissions.IsAuthenticated]

    def get_exception_handler(self) -> Any:
        return exception_handler

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
