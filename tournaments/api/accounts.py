"""The account API (`tournaments.accounts.services`, docs/accounts.md): the signed-in
account's settings (`/api/me/account…`) and the steps that start from a mailed link or
from no account (`/api/account/…`). Thin views; errors `{code, message}`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import update_session_auth_hash
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.accounts import services
from tournaments.api.base import ERRORS, ApiView, SignedInView
from tournaments.api.serializers import ErrorSerializer

LIMITED = {
    429: OpenApiResponse(ErrorSerializer, description="`rate-limited`: too many of these; nothing done")
}


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(max_length=64, allow_blank=True, required=False)
    email = serializers.EmailField(read_only=True)
    email_verified = serializers.BooleanField(read_only=True)
    pending_email = serializers.EmailField(
        read_only=True, help_text="An address asked for, not verified yet (empty: none)."
    )
    language = serializers.ChoiceField(
        choices=["", "es", "en"], required=False, help_text="Of the account's mail; empty: the site's."
    )


class PasswordChangeInput(serializers.Serializer):
    current_password = serializers.CharField(max_length=4096, trim_whitespace=False)
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False)


class EmailChangeInput(serializers.Serializer):
    email = serializers.CharField(max_length=254)
    current_password = serializers.CharField(max_length=4096, trim_whitespace=False)


class PendingEmailSerializer(serializers.Serializer):
    pending_email = serializers.EmailField()


class SentSerializer(serializers.Serializer):
    sent_to = serializers.EmailField(allow_null=True, help_text="null: the address is verified already.")


class SignedOutSerializer(serializers.Serializer):
    sessions_ended = serializers.IntegerField()


class ResetRequestInput(serializers.Serializer):
    email = serializers.CharField(max_length=254)


class ResetConfirmInput(serializers.Serializer):
    uid = serializers.CharField(
        max_length=64, help_text="The link's first part: /account/reset/<uid>/<token>/"
    )
    token = serializers.CharField(max_length=128)
    new_password = serializers.CharField(max_length=4096, trim_whitespace=False)


class VerifyInput(serializers.Serializer):
    token = serializers.CharField(max_length=1024, help_text="The link's part: /account/verify/<token>/")


class DetailSerializer(serializers.Serializer):
    detail = serializers.CharField()


class MyAccountView(SignedInView):
    @extend_schema(operation_id="me_account", responses={200: AccountSerializer, 403: ERRORS[403]})
    def get(self, request: Request) -> Response:
        return Response(AccountSerializer(services.account_info(request.user)).data)

    @extend_schema(
        operation_id="me_account_update",
        request=AccountSerializer,
        responses={200: AccountSerializer, 400: ERRORS[400], 403: ERRORS[403]},
        description="Change the display name and the language of your mail.",
    )
    def patch(self, request: Request) -> Response:
        services.set_profile(request.user, **self.valid(AccountSerializer, request, partial=True))
        return Response(AccountSerializer(services.account_info(request.user)).data)


class MyPasswordView(SignedInView):
    @extend_schema(
        operation_id="me_account_password",
        request=PasswordChangeInput,
        responses={204: None, **ERRORS, **LIMITED},
        description=(
            "A new password. Refusals: `password-wrong` (403), `password-invalid` (400, the "
            "validators' reasons). Other devices are signed out and the API token is deleted; "
            "the session making the request stays signed in."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(PasswordChangeInput, request)
        services.change_password(request.user, data["current_password"], data["new_password"])
        update_session_auth_hash(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyEmailView(SignedInView):
    @extend_schema(
        operation_id="me_account_email",
        request=EmailChangeInput,
        responses={202: PendingEmailSerializer, **ERRORS, 409: ERRORS[400], **LIMITED},
        description=(
            "Ask to move to another address: a verification link is mailed to it, and the "
            "account's email changes once it is followed. Refusals: `email-invalid`, "
            "`password-wrong` (403), `email-taken` (409)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(EmailChangeInput, request)
        pending = services.change_email(
            request.user,
            data["email"],
            data["current_password"],
            language=get_language(),
        )
        return Response({"pending_email": pending}, status=status.HTTP_202_ACCEPTED)


class MyVerificationView(SignedInView):
    @extend_schema(
        operation_id="me_account_verify_email",
        request=None,
        responses={202: SentSerializer, 403: ERRORS[403], **LIMITED},
        description="Mail the verification link again (to the address asked for, else the account's).",
    )
    def post(self, request: Request) -> Response:
        sent = services.send_verification(request.user, language=get_language())
        return Response({"sent_to": sent}, status=status.HTTP_202_ACCEPTED)


class SignOutEverywhereView(SignedInView):
    @extend_schema(
        operation_id="me_account_sign_out_everywhere",
        request=None,
        responses={200: SignedOutSerializer, 403: ERRORS[403]},
        description=(
            "End every other session of the account (every browser and device) and its API "
            "token, but the session or token that makes this call."
        ),
    )
    def post(self, request: Request) -> Response:
        token = getattr(request.auth, "key", None)
        ended = services.sign_out_everywhere(
            request.user, keep=request._request.session.session_key, keep_token=token
        )
        return Response({"sessions_ended": ended})


class Anonymous(ApiView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []  # the mailed link is the credential


class PasswordResetView(Anonymous):
    @extend_schema(
        operation_id="account_password_reset",
        request=ResetRequestInput,
        responses={202: DetailSerializer, 400: ERRORS[400], **LIMITED},
        description=(
            "Mail a password reset link to the account whose verified address this is. The "
            "answer is the same whether or not there is one. Limited per client and per email."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(ResetRequestInput, request)
        client = str(request.META.get("REMOTE_ADDR") or "unknown")
        services.request_password_reset(data["email"], client, language=get_language())
        detail = _(
            "If an account has this confirmed address, a link to choose a new password is on its way."
            " It works once, for a limited time."
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(Anonymous):
    @extend_schema(
        operation_id="account_password_reset_confirm",
        request=ResetConfirmInput,
        responses={204: None, 400: ERRORS[400]},
        description=(
            "Set the password a reset link allows. Refusals: `reset-link-invalid` (expired, "
            "used already, or not a link), `password-invalid`. Every device is signed out."
        ),
    )
    def post(self, request: Request) -> Response:
        v = self.valid(ResetConfirmInput, request)
        services.reset_password(v["uid"], v["token"], v["new_password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class VerifyEmailView(Anonymous):
    @extend_schema(
        operation_id="account_verify_email",
        request=VerifyInput,
        responses={200: AccountSerializer, 400: ERRORS[400], 409: ERRORS[400]},
        description=(
            "Follow a verification link: the address becomes the account's, verified, and the "
            "clubs that invited it make the account a member. Refusals: `verify-link-invalid`, "
            "`verify-link-expired`, `verify-link-stale` (400), `email-taken` (409)."
        ),
    )
    def post(self, request: Request) -> Response:
        data = self.valid(VerifyInput, request)
        user = services.verify_email(data["token"])
        return Response(AccountSerializer(services.account_info(user)).data)
