"""The API of a club's people: its members (each with every role held), the invitations
sent to an email with no account yet, and the club's log. Thin views over
`tournaments.clubs.members`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import ERRORS, ApiView, object_id
from tournaments.clubs import members
from tournaments.models import ClubInvitation, Membership

ROLE_CODES = [code for code, _name in Membership.ROLE_CHOICES]


class MemberAddInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, required=False, allow_blank=True)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    role = serializers.CharField(max_length=16, help_text="owner, organiser, referee, scorekeeper or player")


class RolesInput(serializers.Serializer):
    roles = serializers.ListField(
        child=serializers.CharField(max_length=16),
        max_length=len(ROLE_CODES),
        allow_empty=True,
        help_text="Every role the member is to hold: owner, organiser, referee, scorekeeper, player.",
    )


class MemberSerializer(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())
    since = serializers.DateTimeField()


class InvitationSerializer(serializers.ModelSerializer):
    role = serializers.CharField()
    status = serializers.CharField(help_text="pending, accepted or cancelled")

    class Meta:
        model = ClubInvitation
        fields = ["id", "email", "role", "status", "created_at"]


class ClubEventSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    actor = serializers.CharField()
    actor_name = serializers.CharField(allow_blank=True)
    recorded_at = serializers.DateTimeField()


def _member_rows(found: dict[str, Any]) -> dict[str, Any]:
    return {
        "members": MemberSerializer(found["members"], many=True).data,
        "invitations": InvitationSerializer(found["invitations"], many=True).data,
    }


class ClubMembersView(ApiView):
    permission_classes = [permissions.IsAuthenticated]  # the list is for the club's managers

    @extend_schema(operation_id="club_members", responses={200: OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, club_id: str) -> Response:
        """The members (each with every role held) and pending invitations (owners, organisers)."""
        return Response(_member_rows(members.members_of(club_id, request.user)))

    @extend_schema(
        operation_id="club_member_add",
        request=MemberAddInput,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "Give a role to the account named by `username` or by `email` (owners, organisers; "
            "a user may join as a player). An email with no account is invited: the role is "
            "granted when an account with that email signs up. Answers `{kind: member|invitation}`."
        ),
    )
    def post(self, request: Request, club_id: str) -> Response:
        data = self.valid(MemberAddInput, request)
        found = members.add_member(
            object_id(club_id, _("No such club.")),
            request.user,
            role=data["role"],
            username=data.get("username"),
            email=data.get("email"),
        )
        if isinstance(found, ClubInvitation):
            body = {"kind": "invitation", **InvitationSerializer(found).data}
        else:
            body = {
                "kind": "member",
                "user": found.user_id,
                "username": found.user.get_username(),
                "role": found.role,
            }
        return Response(body, status=status.HTTP_201_CREATED)


class ClubMemberView(ApiView):
    @extend_schema(
        operation_id="club_member_roles",
        request=RolesInput,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="Set every role the member holds (owners, organisers; only owners touch the owner role).",
    )
    def put(self, request: Request, club_id: str, username: str) -> Response:
        data = self.valid(RolesInput, request)
        roles = members.set_roles(
            object_id(club_id, _("No such club.")), request.user, username, data["roles"]
        )
        return Response({"username": username, "roles": roles})

    @extend_schema(operation_id="club_member_remove", request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, club_id: str, username: str) -> Response:
        """Remove the member from the club (all roles); anyone may leave a club."""
        members.remove_member(object_id(club_id, _("No such club.")), request.user, username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInvitationView(ApiView):
    @extend_schema(
        operation_id="club_invitation_cancel", request=None, responses={200: InvitationSerializer, **ERRORS}
    )
    def delete(self, request: Request, club_id: str, invitation_id: str) -> Response:
        invitation = members.cancel_invitation(
            object_id(club_id, _("No such club.")), request.user, invitation_id
        )
        return Response(InvitationSerializer(invitation).data)


class ClubLogView(ApiView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="club_log", responses={200: ClubEventSerializer(many=True), **ERRORS})
    def get(self, request: Request, club_id: str) -> Response:
        """The club's log, newest first (owners, organisers)."""
        found = members.members_of(club_id, request.user)
        events = list(found["club"].events.order_by("-version")[:500])
        names = members.actor_names(e.actor for e in events)
        rows = [
            {
                "version": e.version,
                "type": e.type,
                "payload": e.payload,
                "actor": e.actor,
                "actor_name": names.get(e.actor, ""),
                "recorded_at": e.recorded_at,
            }
            for e in events
        ]
        return Response(ClubEventSerializer(rows, many=True).data)
