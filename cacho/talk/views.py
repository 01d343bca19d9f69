"""Table talk over HTTP (docs/table-talk.md): thin views over `cacho.talk.service`, which
the match socket calls too. Errors are `{code, message}` with the service's status."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cacho.api.errors import ApiError
from cacho.api.views import CachoView, json_object
from cacho.edge.inputs import plain_digits
from cacho.talk import phrases, service
from cacho.talk.service import TalkError

Message = inline_serializer(
    "ChatMessage",
    {
        "id": serializers.IntegerField(),
        "c": serializers.CharField(help_text="the chat: players or spectators"),
        "seat": serializers.CharField(allow_null=True, help_text="the author's seat (players' chat)"),
        "author": serializers.CharField(),
        "phrase": serializers.CharField(allow_null=True, help_text="a quick phrase's key, or null"),
        "text": serializers.CharField(allow_blank=True, help_text="free text (empty for a phrase)"),
        "at": serializers.IntegerField(help_text="ms since the epoch"),
    },
)
ChatSettings = inline_serializer(
    "ChatSettings",
    {
        "player_chat": serializers.BooleanField(help_text="the players' chat is on at this table"),
        "can_post": serializers.ListField(child=serializers.CharField()),
        "reads": serializers.ListField(child=serializers.CharField()),
        "seat": serializers.CharField(allow_null=True),
        "muted": serializers.ListField(child=serializers.CharField()),
        "can_report": serializers.BooleanField(),
        "max_chars": serializers.IntegerField(),
    },
)
Report = inline_serializer(
    "ChatReport",
    {
        "id": serializers.IntegerField(),
        "match": serializers.UUIDField(),
        "queue": serializers.ChoiceField(choices=["club", "site"]),
        "club": serializers.IntegerField(allow_null=True),
        "message": Message,
        "reporter": serializers.CharField(),
        "reason": serializers.CharField(allow_blank=True),
        "context": serializers.ListField(child=serializers.DictField(), help_text="the messages around it"),
        "at": serializers.IntegerField(),
        "status": serializers.ChoiceField(choices=["open", "dismissed", "acted"]),
        "note": serializers.CharField(allow_blank=True),
        "resolved_at": serializers.IntegerField(allow_null=True),
    },
)
ERROR = inline_serializer("TalkError", {"code": serializers.CharField(), "message": serializers.CharField()})


def _fields(data: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ApiError(400, "unknown-field", _("Unknown field(s): %s") % ", ".join(unknown))


class TalkView(CachoView):
    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, TalkError):
            exc = ApiError(exc.status, exc.code, exc.message, **exc.extra)
        return super().handle_exception(exc)

    def who(self, request: Request, match_id: str) -> tuple[Any, service.Speaker]:
        match = service.match_of(match_id)
        return match, service.speaker(match, request.user, getattr(request, "session", None))


class ChatView(TalkView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only messages after this id")],
        responses={
            200: inline_serializer(
                "ChatHistory", {"messages": serializers.ListField(child=Message), "settings": ChatSettings}
            )
        },
        summary="The table's talk this viewer may read, and what they may do",
    )
    def get(self, request: Request, match_id: str) -> Response:
        match, who = self.who(request, match_id)
        after = request.query_params.get("after", "0")
        if not plain_digits(after):
            raise ApiError(400, "chat-after-invalid", _("`after` is a message id."))
        return Response(
            {
                "messages": service.history(match, who, int(after)),
                "settings": service.chat_settings(match, who),
            }
        )

    @extend_schema(
        request=inline_serializer(
            "ChatPost",
            {
                "channel": serializers.ChoiceField(choices=["players", "spectators"]),
                "text": serializers.CharField(required=False),
                "phrase": serializers.CharField(required=False, help_text="a quick phrase's key"),
            },
        ),
        responses={201: Message, 400: ERROR, 403: ERROR, 429: ERROR},
        summary="Write in the players' chat (seated) or the spectators' chat (signed in, not seated)",
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = json_object(request)
        _fields(data, {"channel", "text", "phrase"})
        match, who = self.who(request, match_id)
        message = service.post(
            match, who, data.get("channel"), text=data.get("text"), phrase=data.get("phrase")
        )
        return Response(message, status=201)


class MuteView(TalkView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=inline_serializer(
            "ChatMute", {"seat": serializers.CharField(), "muted": serializers.BooleanField(default=True)}
        ),
        responses={200: inline_serializer("ChatMuted", {"muted": serializers.ListField()}), 403: ERROR},
        summary="Mute (or unmute) another seat's messages for yourself",
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = json_object(request)
        _fields(data, {"seat", "muted"})
        on = data.get("muted", True)
        if not isinstance(on, bool):
            raise ApiError(400, "chat-muted-invalid", _("`muted` is true or false."))
        match, who = self.who(request, match_id)
        return Response({"muted": service.mute(match, who, data.get("seat"), on)})


class ReportView(TalkView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=inline_serializer(
            "ChatReportIn",
            {"message": serializers.IntegerField(), "reason": serializers.CharField(required=False)},
        ),
        responses={201: Report, 403: ERROR, 404: ERROR, 409: ERROR},
        summary="Report a message to the club's queue (tournament table) or the site moderators'",
    )
    def post(self, request: Request, match_id: str) -> Response:
        data = json_object(request)
        _fields(data, {"message", "reason"})
        match, who = self.who(request, match_id)
        return Response(service.report(match, who, data.get("message"), data.get("reason", "")), status=201)


class QueueView(TalkView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("status", str, description="open (default), dismissed, acted or all")],
        responses={200: inline_serializer("ChatQueue", {"reports": serializers.ListField(child=Report)})},
        summary="The reported messages of the caller's queues (their clubs', the site's)",
    )
    def get(self, request: Request) -> Response:
        status = request.query_params.get("status", "open")
        return Response({"reports": service.queue(request.user, status)})


class ResolveView(TalkView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=inline_serializer(
            "ChatResolve",
            {
                "outcome": serializers.ChoiceField(choices=["dismissed", "acted"]),
                "note": serializers.CharField(required=False),
            },
        ),
        responses={200: Report, 403: ERROR, 404: ERROR, 409: ERROR},
        summary="Resolve a report: dismissed, or acted on",
    )
    def post(self, request: Request, report_id: int) -> Response:
        data = json_object(request)
        _fields(data, {"outcome", "note"})
        return Response(service.resolve(request.user, report_id, data.get("outcome"), data.get("note", "")))


class PhrasesView(TalkView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: inline_serializer("ChatPhrases", {"phrases": serializers.DictField()})},
        summary="The quick phrases by key, in the request's language",
    )
    def get(self, request: Request) -> Response:
        return Response({"phrases": phrases.phrases()})
