"""The account steps behind the pages and the API (docs/accounts.md). Each refusal is a
`TournamentError` with a stable code; nothing is changed by a refused step.

Links in mail: an address is verified by a signed token (user id and address, valid
`CACHO_VERIFY_EMAIL_SECONDS`); a password is reset by Django's token (valid
`PASSWORD_RESET_TIMEOUT`, spent once the password changes).
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.tokens import default_token_generator
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from cacho.edge import limits
from tournaments.accounts.models import Account, account_of
from tournaments.errors import TournamentError
from tournaments.mail import send_mail_after_commit, site_url

VERIFY_SALT = "cacho.accounts.verify-email"


def _limited(scope: str, *idents: Any) -> None:
    """Count one `scope` for each ident; refused (429, nothing done) past the limit."""
    waits = [wait for ident in idents if (wait := limits.hit(scope, ident)) is not None]
    if waits:
        minutes = max(1, math.ceil(max(waits) / 60))
        raise TournamentError(
            "rate-limited",
            _("Too many requests of this kind: try again in %(minutes)d minutes.") % {"minutes": minutes},
            status=429,
        )


def clean_address(value: Any) -> str:
    address = str(value or "").strip()
    try:
        validate_email(address)
    except ValidationError as exc:
        raise TournamentError("email-invalid", _("Enter a valid email address."), field="email") from exc
    return address


def _taken(address: str, by: Any) -> bool:
    """Another account has this address (one asked for and not verified yet is nobody's)."""
    return get_user_model().objects.filter(email__iexact=address).exclude(pk=by.pk).exists()


# ---------------------------------------------------------------- verification


def verification_link(user: Any, address: str) -> str:
    token = signing.dumps({"u": user.pk, "e": address.lower()}, salt=VERIFY_SALT, compress=True)
    return site_url(reverse("frontend:verify-email", args=[token]))


def send_verification(user: Any, *, language: str | None = None) -> str | None:
    """Mail the link that verifies the account's unverified address: the one it asked to
    move to, else its own. Answers the address, or None when there is nothing to verify."""
    account = account_of(user)
    address = account.pending_email or ("" if account.email_verified else user.email)
    if not address:
        return None
    _limited("verify-email", f"user:{user.pk}")
    context = {
        "username": user.get_username(),
        "link": verification_link(user, address),
        "days": settings.CACHO_VERIFY_EMAIL_SECONDS // 86400,
    }
    send_mail_after_commit("verify_email", address, context, language or account.language or None)
    return address


def verify_email(token: str) -> Any:
    """Follow a verification link: the address becomes the account's, verified; the clubs
    that invited it make the account a member. Answers the user."""
    from tournaments.clubs.members import accept_invitations

    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=settings.CACHO_VERIFY_EMAIL_SECONDS)
    except signing.SignatureExpired as exc:
        raise TournamentError(
            "verify-link-expired", _("This confirmation link has expired: ask for a new one.")
        ) from exc
    except signing.BadSignature as exc:
        raise TournamentError("verify-link-invalid", _("This confirmation link is not valid.")) from exc
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=data.get("u")).first()
        if user is None:
            raise TournamentError("verify-link-invalid", _("This confirmation link is not valid."))
        account = account_of(user)
        address = str(data.get("e", ""))
        if account.pending_email.lower() == address:
            if _taken(address, by=user):
                raise TournamentError(
                    "email-taken", _("Another account uses this email."), status=409, field="email"
                )
            user.email = account.pending_email
            user.save(update_fields=["email"])
        elif (user.email or "").lower() != address:
            raise TournamentError(
                "verify-link-stale", _("This address is no longer the one this account asked for.")
            )
        account.verified_email, account.pending_email = user.email, ""
        account.save(update_fields=["verified_email", "pending_email"])
        accept_invitations(user)
    return user


# ---------------------------------------------------------------- password reset


def reset_link(user: Any) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return site_url(reverse("frontend:password-reset-confirm", args=[uid, token]))


def request_password_reset(email: Any, client: str, *, language: str | None = None) -> None:
    """Mail a reset link to the account whose verified address is `email`, if there is
    one: the answer is the same either way. Limited per client address and per email."""
    address = clean_address(email)
    _limited("password-reset", f"addr:{client}", f"email:{address.lower()}")
    users = get_user_model().objects.filter(email__iexact=address, is_active=True)
    for user in users:
        if not user.has_usable_password() or not account_of(user).email_verified:
            continue
        context = {
            "username": user.get_username(),
            "link": reset_link(user),
            "minutes": settings.PASSWORD_RESET_TIMEOUT // 60,
        }
        send_mail_after_commit("password_reset", user, context, language)


def user_of_reset_link(uidb64: str, token: str) -> Any:
    """The account a reset link names, or a refusal: expired, already used, or not one."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = get_user_model().objects.filter(pk=int(pk), is_active=True).first()
    except (ValueError, TypeError, OverflowError):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise TournamentError(
            "reset-link-invalid",
            _("This password reset link has expired or was used already: ask for a new one."),
        )
    return user


def reset_password(uidb64: str, token: str, password: Any) -> Any:
    """Set the password a reset link allows; the link is spent and every device signed out."""
    with transaction.atomic():
        user = user_of_reset_link(uidb64, token)
        _set_password(user, password, "password")
        sign_out_everywhere(user)
    return user


# ---------------------------------------------------------------- the account's own settings


def _set_password(user: Any, password: Any, field: str) -> None:
    password = str(password or "")
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise TournamentError("password-invalid", " ".join(exc.messages), field=field) from exc
    user.set_password(password)
    user.save(update_fields=["password"])


def _check_password(user: Any, password: Any) -> None:
    if not user.check_password(str(password or "")):
        raise TournamentError(
            "password-wrong", _("Your current password is not right."), status=403, field="current_password"
        )


def change_password(user: Any, current: Any, new: Any) -> None:
    """A new password; other devices' sessions end (Django checks the password's hash);
    the caller keeps its own session (`update_session_auth_hash`)."""
    _limited("account-change", f"user:{user.pk}")
    with transaction.atomic():
        _check_password(user, current)
        _set_password(user, new, "new_password")
        from rest_framework.authtoken.models import Token

        Token.objects.filter(user=user).delete()


def change_email(user: Any, new: Any, current_password: Any, *, language: str | None = None) -> str:
    """Ask to move to the address `new`: the account keeps its address until the link
    mailed to `new` is followed. Answers the pending address."""
    address = clean_address(new)
    _limited("account-change", f"user:{user.pk}")
    with transaction.atomic():
        _check_password(user, current_password)
        account = account_of(user)
        if address.lower() == (user.email or "").lower():
            account.pending_email = ""
            account.save(update_fields=["pending_email"])
            if not account.email_verified:
                send_verification(user, language=language)
            return address
        if _taken(address, by=user):
            raise TournamentError(
                "email-taken", _("Another account uses this email."), status=409, field="email"
            )
        account.pending_email = address
        account.save(update_fields=["pending_email"])
        send_verification(user, language=language)
    return address


def set_profile(user: Any, *, display_name: Any = None, language: Any = None) -> Account:
    account = account_of(user)
    fields = []
    if display_name is not None:
        name = " ".join(str(display_name).split())
        if len(name) > 64:
            raise TournamentError(
                "display-name-too-long", _("A display name has at most 64 characters."), field="display_name"
            )
        account.display_name = name
        fields.append("display_name")
    if language is not None:
        code = str(language)
        if code and code not in {c for c, _name in settings.LANGUAGES}:
            raise TournamentError("language-unknown", _("Choose Spanish or English."), field="language")
        account.language = code
        fields.append("language")
    if fields:
        account.save(update_fields=fields)
    return account


def sign_out_everywhere(user: Any, *, keep: str | None = None, keep_token: str | None = None) -> int:
    """End every session of the account (every browser, every device) but the session
    `keep`, and its API token unless it is `keep_token` (the caller's own). Answers how many
    sessions ended. The sessions are found by reading each live one: this is rare, and the
    session store keeps no index by user."""
    from rest_framework.authtoken.models import Token

    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = session.get_decoded()
        if str(data.get("_auth_user_id")) == str(user.pk) and session.session_key != keep:
            ended.append(session.session_key)
    Session.objects.filter(session_key__in=ended).delete()
    Token.objects.filter(user=user).exclude(key=keep_token or "").delete()
    return len(ended)


def account_info(user: Any) -> dict[str, Any]:
    account = account_of(user)
    return {
        "username": user.get_username(),
        "display_name": account.display_name,
        "email": user.email,
        "email_verified": account.email_verified,
        "pending_email": account.pending_email,
        "language": account.language,
    }
