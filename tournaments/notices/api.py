"""The notices' API (docs/notices.md): the bell's list and marking read, the choices per
kind, the browsers that receive push, and the match pages whose tab is hidden. Thin views
over `tournaments.notices.settings`; errors `{code, message}`; signed-in players only."""

from __future__ import annotations

from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, SignedInView
from tournaments.api.serializers import ErrorSerializer
from tournaments.notices import preferences as notice_settings

REFUSED = {**ERRORS, 401: OpenApiResponse(ErrorSerializer, description="Not signed in")}


class NoticeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=notice_settings.kinds.KINDS)
    title = serializers.CharField(help_text="In the request's language.")
    body = serializers.CharField()
    link = serializers.CharField(help_text="A path of this site: the table, the tournament, the dispute.")
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()


class NoticeListSerializer(serializers.Serializer):
    unread = serializers.IntegerField()
    notices = NoticeSerializer(many=True)


class MarkReadInput(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(), required=False, max_length=200, help_text="These notices."
    )
    all = serializers.BooleanField(required=False, default=False, help_text="Every notice.")


class UnreadSerializer(serializers.Serializer):
    unread = serializers.IntegerField()


class ChannelsSerializer(serializers.Serializer):
    in_app = serializers.BooleanField()
    email = serializers.BooleanField()
    push = serializers.BooleanField()


class KindChoiceSerializer(ChannelsSerializer):
    kind = serializers.ChoiceField(choices=notice_settings.kinds.KINDS)
    name = serializers.CharField()


class PushInfoSerializer(serializers.Serializer):
    enabled = serializers.BooleanField(help_text="False: this site has no VAPID keys, nothing is pushed.")
    public_key = serializers.CharField(
        help_text="The VAPID public key (the Push API's applicationServerKey)."
    )
    subscriptions = serializers.IntegerField(help_text="Your browsers that receive push.")


class NoticeSettingsSerializer(serializers.Serializer):
    kinds = KindChoiceSerializer(many=True)
    push = PushInfoSerializer()


class ChannelsInput(serializers.Serializer):
    """The channels named change; the others keep their choice."""

    in_app = serializers.BooleanField(required=False)
    email = serializers.BooleanField(required=False)
    push = serializers.BooleanField(required=False)


class NoticeSettingsInput(serializers.Serializer):
    choices = serializers.DictField(
        child=ChannelsInput(),
        help_text="By kind (`table-ready`, `your-turn`, `result-changed`, `starts-soon`, `dispute-ruled`).",
    )


class SubscriptionKeys(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=64)


class SubscriptionInput(serializers.Serializer):
    """The browser's own `PushSubscription.toJSON()`, sent as it is."""

    endpoint = serializers.URLField(max_length=1000)
    keys = SubscriptionKeys()
    # Part of the browser's JSON, so known here (an unknown field is refused); not kept.
    expirationTime = serializers.IntegerField(required=False, allow_null=True)


class UnsubscribeInput(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)


class RequiredBooleanField(serializers.BooleanField):
    """A boolean that a form body must name too: DRF reads a form's missing boolean as an
    unticked checkbox (false), which would answer a body without the field as if it said no."""

    default_empty_html = serializers.empty


class HiddenTabInput(serializers.Serializer):
    match = serializers.UUIDField()
    hidden = RequiredBooleanField()


class NoticesView(SignedInView):
    @extend_schema(
        operation_id="me_notices_list",
        responses={200: NoticeListSerializer, **REFUSED},
        description="Your latest in-app notices (newest first, at most 30) and how many are unread.",
    )
    def get(self, request: Request) -> Response:
        return Response(notice_settings.listed(request.user, get_language()))


class NoticesReadView(SignedInView):
    @extend_schema(
        operation_id="me_notices_read",
        request=MarkReadInput,
        responses={200: UnreadSerializer, **REFUSED},
        description="Mark notices read: `ids`, or `all`. Answers how many stay unread.",
    )
    def post(self, request: Request) -> Response:
        data = self.valid(MarkReadInput, request)
        unread = notice_settings.mark_read(request.user, data.get("ids") or [], data["all"])
        return Response({"unread": unread})


class NoticeSettingsView(SignedInView):
    @extend_schema(
        operation_id="me_notice_settings",
        responses={200: NoticeSettingsSerializer, **REFUSED},
        description="Each kind of notice with the channels it reaches you by, and whether push works here.",
    )
    def get(self, request: Request) -> Response:
        return Response(notice_settings.described(request.user))

    @extend_schema(
        operation_id="me_notice_settings_update",
        request=NoticeSettingsInput,
        responses={200: NoticeSettingsSerializer, **REFUSED},
        description=(
            "Choose the channels of each kind named (the others keep theirs). Refusals: "
            "`unknown-notice-kind` (400). Your email and push notices are then written in the "
            "request's language."
        ),
    )
    def put(self, request: Request) -> Response:
        data = self.valid(NoticeSettingsInput, request)
        notice_settings.choose(request.user, data["choices"], get_language())
        return Response(notice_settings.described(request.user))


class PushSubscriptionsView(SignedInView):
    @extend_schema(
        operation_id="me_push_subscribe",
        request=SubscriptionInput,
        responses={201: None, **REFUSED},
        description=(
            "This browser receives your push notices (its `PushSubscription` as JSON). Refusals: "
            "`push-disabled` (409: the site has no VAPID keys). A browser subscribed for another "
            "account before moves over to yours."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(SubscriptionInput, request)
        keys = data["keys"]
        notice_settings.subscribe(
            request.user, data["endpoint"], keys["p256dh"], keys["auth"], get_language()
        )
        return Response(status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="me_push_unsubscribe",
        request=UnsubscribeInput,
        responses={204: None, **REFUSED},
        description="This browser no longer receives your push notices.",
    )
    def delete(self, request: Request) -> Response:
        data = self.valid(UnsubscribeInput, request)
        notice_settings.unsubscribe(request.user, data["endpoint"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class HiddenTabView(SignedInView):
    @extend_schema(
        operation_id="me_hidden_tab",
        request=HiddenTabInput,
        responses={204: None, **REFUSED},
        description=(
            "Your match page's tab was hidden (`hidden: true`) or shown again: while it is "
            "hidden, your turn there is a notice (`your-turn`, by push unless you chose otherwise)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(HiddenTabInput, request)
        notice_settings.tab_hidden(request.user, data["match"], data["hidden"])
        return Response(status=status.HTTP_204_NO_CONTENT)
