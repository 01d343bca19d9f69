"""Email verification at sign-up and on change, and a club's invitation by email: the
link mailed by the real SMTP server is followed; refusals change nothing."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from tests.accounts.smtp import Mailbox
from tournaments.accounts.models import Account
from tournaments.clubs.members import add_member
from tournaments.mail.delivery import settle
from tournaments.models import Club, ClubInvitation, Membership

pytestmark = [pytest.mark.sqlite_too]

PASSWORD = "a-long-pass-phrase-7"


def _signup(client: Client, username: str, email: str, language: str = "en") -> Any:
    body = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/signup/", body, HTTP_ACCEPT_LANGUAGE=language)


def _verify_path(mailbox: Mailbox, address: str, count: int = 1) -> str:
    message = mailbox.wait_for(address, count)[-1]
    [link] = [link for link in message.links() if "/account/verify/" in link]
    return urlsplit(link).path


def test_sign_up_sends_the_verification_and_the_link_verifies(committed_db: None, mailbox: Mailbox) -> None:
    client = Client()
    assert _signup(client, "dora", "dora@example.org").status_code == 302
    [message] = mailbox.wait_for("dora@example.org")
    assert message.subject == "Cacho: confirm your email address"  # the language of the sign-up
    assert "Hello dora," in message.text and "Confirm my address" in message.html
    profile = client.get("/me/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="email-unconfirmed"' in profile
    done = client.get(_verify_path(mailbox, "dora@example.org"), HTTP_ACCEPT_LANGUAGE="en")
    assert (
        done.status_code == 200 and "dora@example.org is confirmed for your account." in done.content.decode()
    )
    account = Account.objects.get(user__username="dora")
    assert account.email_verified and account.language == "en"
    assert 'id="email-unconfirmed"' not in client.get("/me/").content.decode()
    again = client.get(_verify_path(mailbox, "dora@example.org"))  # a second click: still confirmed
    assert again.status_code == 200


def test_a_broken_or_expired_verification_link_changes_nothing(
    committed_db: None, mailbox: Mailbox, settings: Any
) -> None:
    _signup(Client(), "eloy", "eloy@example.org", "es")
    path = _verify_path(mailbox, "eloy@example.org")
    broken = Client().get(path[:-3] + "xx/", HTTP_ACCEPT_LANGUAGE="es")
    assert (
        broken.status_code == 400 and "Este enlace de confirmación no es válido." in broken.content.decode()
    )
    settings.CACHO_VERIFY_EMAIL_SECONDS = -1
    expired = Client().get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert expired.status_code == 400
    assert "This confirmation link has expired: ask for a new one." in expired.content.decode()
    assert not Account.objects.get(user__username="eloy").email_verified


def test_an_invitation_by_email_is_received_and_accepted_after_sign_up(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    owner = make_user("olga", verified=True)
    club = Club.objects.create(name="Club Sucre")
    Membership.objects.create(club=club, user=owner, role=Membership.OWNER)
    with translation.override("es"):  # the inviter's language (their request's)
        invitation = add_member(club.pk, owner, role=Membership.REFEREE, email="Nueva@Example.org")
    assert isinstance(invitation, ClubInvitation)
    [message] = mailbox.wait_for("nueva@example.org")
    assert message.subject == "Cacho: Club Sucre te invita"
    assert "olga te invita al club Club Sucre en Cacho, como árbitro." in message.text
    [link] = message.links()
    client = Client()
    page = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert 'value="nueva@example.org"' in page.content.decode()  # the sign-up knows the address
    assert _signup(client, "nueva", "nueva@example.org").status_code == 302
    user = get_user_model().objects.get(username="nueva")
    assert not Membership.objects.filter(club=club, user=user).exists()  # not before it is verified
    client.get(_verify_path(mailbox, "nueva@example.org", 2))  # after the invitation
    assert Membership.objects.filter(club=club, user=user, role=Membership.REFEREE).exists()
    invitation.refresh_from_db()
    assert invitation.status == ClubInvitation.ACCEPTED and invitation.accepted_by == user


def test_changing_the_email_waits_for_the_new_address(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    user = make_user("fabi", verified=True)
    make_user("gus", verified=True)
    client = Client()
    client.force_login(user)
    wrong = client.post(
        "/account/",
        {"action": "email", "email": "new@example.org", "current_password": "nope"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert wrong.status_code == 403 and "Your current password is not right." in wrong.content.decode()
    taken = client.post(
        "/account/",
        {"action": "email", "email": "GUS@example.org", "current_password": "pw-1234567"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert taken.status_code == 409 and "Another account uses this email." in taken.content.decode()
    settle()
    assert Account.objects.get(user=user).pending_email == "" and mailbox.to("gus@example.org") == []
    asked = client.post(
        "/account/", {"action": "email", "email": "new@example.org", "current_password": "pw-1234567"}
    )
    assert asked.status_code == 302 and asked["Location"] == "/account/?done=email"
    user.refresh_from_db()
    assert user.email == "fabi@example.org"  # until the new address is verified
    path = _verify_path(mailbox, "new@example.org")
    assert mailbox.to("fabi@example.org") == []
    client.get(path)
    user.refresh_from_db()
    account = Account.objects.get(user=user)
    assert user.email == "new@example.org" and account.email_verified and account.pending_email == ""


def test_a_verification_link_for_an_address_given_up_is_refused(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    user = make_user("hugo", verified=True)
    client = Client()
    client.force_login(user)
    client.post(
        "/account/", {"action": "email", "email": "first@example.org", "current_password": "pw-1234567"}
    )
    first = _verify_path(mailbox, "first@example.org")
    client.post(
        "/account/", {"action": "email", "email": "second@example.org", "current_password": "pw-1234567"}
    )
    _verify_path(mailbox, "second@example.org")
    stale = client.get(first, HTTP_ACCEPT_LANGUAGE="en")
    assert stale.status_code == 400 and "no longer the one this account asked for" in stale.content.decode()
    user.refresh_from_db()
    assert user.email == "hugo@example.org"


def test_resending_the_verification_is_limited(committed_db: None, mailbox: Mailbox, settings: Any) -> None:
    settings.CACHO_RATES = {**settings.CACHO_RATES, "verify-email": "2/hour"}
    client = Client()
    _signup(client, "ines", "ines@example.org")
    assert client.post("/account/", {"action": "verify"}).status_code == 302
    refused = client.post("/account/", {"action": "verify"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 429 and "Too many requests of this kind" in refused.content.decode()
    mailbox.wait_for("ines@example.org", 2)
    settle()
    assert len(mailbox.to("ines@example.org")) == 2


def test_an_unverified_account_is_invited_not_made_a_member(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    owner = make_user("olga", verified=True)
    claimer = make_user("claimer")  # says the address is theirs, never proved it
    club = Club.objects.create(name="Club Oruro")
    Membership.objects.create(club=club, user=owner, role=Membership.OWNER)
    found = add_member(club.pk, owner, role=Membership.ORGANISER, email="claimer@example.org")
    assert isinstance(found, ClubInvitation)
    assert not Membership.objects.filter(club=club, user=claimer).exists()
    settle()
    assert mailbox.to("claimer@example.org") == []  # an unverified address: nothing but its verification
