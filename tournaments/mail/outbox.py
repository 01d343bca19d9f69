"""The public entry: queue a message for after the commit (package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.mail.models import OutgoingMail

# What an address not verified yet may receive: the link that verifies it, nothing else.
UNVERIFIED_KINDS = frozenset({"verify_email"})


def site_url(path: str) -> str:
    """`path` on this site as mail names it (`SITE_URL`)."""
    return f"{settings.CACHO_SITE_URL}/{path.lstrip('/')}"


def spoken(language: str | None) -> str:
    """The site's language that `language` names (`es-BO` → `es`), else the site's own."""
    code = (language or "").split("-")[0].lower()
    return code if code in {known for known, _name in settings.LANGUAGES} else str(settings.LANGUAGE_CODE)


def _language(language: str | None, user: Any = None) -> str:
    if language is None and user is not None:
        from tournaments.accounts.models import Account

        language = Account.objects.filter(user=user).values_list("language", flat=True).first()
    return spoken(language)


def _verified(address: str) -> bool:
    """An address that belongs to no account is the caller's to vouch for (an invitation);
    one that an account names is sent to only once that account verified it."""
    from tournaments.accounts.models import Account

    owners = get_user_model().objects.filter(email__iexact=address)
    if not owners.exists():
        return True
    return Account.objects.filter(user__in=owners, verified_email__iexact=address).exists()


def send_mail_after_commit(
    kind: str,
    to: Any,
    context: Mapping[str, Any],
    language: str | None = None,
) -> OutgoingMail | None:
    """Send the message `kind` to `to` once the current transaction commits.

    `to` is a user (their email, only once verified) or an address. `context` is stored
    as JSON for the templates ``mail/<kind>.subject.txt``, ``.txt`` and ``.html`` (give
    ids, names and absolute links from `site_url`, never objects). `language` ("es",
    "en") defaults to the user's, else the site's. Answers the stored message, or None
    when nothing is sent: no address, or an unverified one and `kind` is not the
    verification (`UNVERIFIED_KINDS`). Rolled back with the caller's transaction.
    """
    user = None if isinstance(to, str) else to
    address = (to if user is None else (getattr(user, "email", "") or "")).strip()
    if not address:
        return None
    if kind not in UNVERIFIED_KINDS and not _verified(address):
        return None
    mail = OutgoingMail.objects.create(
        kind=kind, to=address, context=dict(context), language=_language(language, user)
    )
    from tournaments.mail.delivery import queue

    transaction.on_commit(lambda: queue(mail.pk))
    return mail
