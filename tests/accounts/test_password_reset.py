"""Password reset by email, end to end through the real SMTP server: the same answer
whether or not the address has an account, a link that works once and expires, limits."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.accounts.smtp import Mailbox
from tournaments.mail.delivery import settle
from tournaments.mail.models import OutgoingMail

pytestmark = [pytest.mark.sqlite_too]

NEW = "a-brand-new-phrase-42"
SAME_ANSWER = "If an account has this confirmed address"


def _ask(client: Client, email: str, **extra: Any) -> Any:
    return client.post("/account/password-reset/", {"email": email}, HTTP_ACCEPT_LANGUAGE="en", **extra)


def _link_path(mailbox: Mailbox, address: str, count: int = 1) -> str:
    message = mailbox.wait_for(address, count)[-1]
    [link] = [link for link in message.links() if "/account/reset/" in link]
    return urlsplit(link).path


def test_reset_end_to_end(committed_db: None, mailbox: Mailbox, make_user: Any) -> None:
    user = make_user("marta", verified=True)
    client = Client()
    asked = _ask(client, "MARTA@example.org")
    assert asked.status_code == 200 and SAME_ANSWER in asked.content.decode()
    message = mailbox.wait_for("marta@example.org")[0]
    assert message.subject == "Cacho: choose a new password"  # the language of the request
    assert "marta" in message.text and "120 minutes" in message.text
    path = _link_path(mailbox, "marta@example.org")
    form = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert form.status_code == 200 and "For the account marta." in form.content.decode()
    done = client.post(path, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/login/?reset=1"
    assert Client().login(username="marta", password=NEW)
    assert not Client().login(username="marta", password="pw-1234567")
    again = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 400
    assert "expired or was used already" in again.content.decode()
    reused = client.post(path, {"new_password1": "another-phrase-99", "new_password2": "another-phrase-99"})
    assert reused.status_code == 400
    user.refresh_from_db()
    assert user.check_password(NEW)


def test_the_same_answer_whether_or_not_the_address_has_an_account(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    make_user("nico")  # an address not verified: no reset mail either
    make_user("vera", verified=True)
    answers = {
        email: _ask(Client(), email)
        for email in ("nobody@example.org", "nico@example.org", "vera@example.org")
    }
    assert {a.status_code for a in answers.values()} == {200}
    bodies = {a.content.decode().replace("csrfmiddlewaretoken", "") for a in answers.values()}
    assert all(SAME_ANSWER in body for body in bodies)
    mailbox.wait_for("vera@example.org")
    settle()
    assert mailbox.to("nobody@example.org") == [] and mailbox.to("nico@example.org") == []
    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["vera@example.org"]


def test_an_expired_link_is_refused(
    committed_db: None, mailbox: Mailbox, make_user: Any, settings: Any
) -> None:
    user = make_user("olga", verified=True)
    generator = default_token_generator
    past = generator._num_seconds(generator._now()) - settings.PASSWORD_RESET_TIMEOUT - 1
    token = generator._make_token_with_timestamp(user, past, generator.secret)
    path = f"/account/reset/{urlsafe_base64_encode(force_bytes(user.pk))}/{token}/"
    page = Client().post(path, {"new_password1": NEW, "new_password2": NEW}, HTTP_ACCEPT_LANGUAGE="es")
    assert page.status_code == 400
    assert "Este enlace para restablecer la contraseña venció o ya se usó" in page.content.decode()
    user.refresh_from_db()
    assert user.check_password("pw-1234567")
    assert Client().get("/account/reset/zzz/nonsense/").status_code == 400


def test_a_weak_password_changes_nothing_and_the_link_still_works(
    committed_db: None, mailbox: Mailbox, make_user: Any
) -> None:
    make_user("pablo", verified=True)
    client = Client()
    _ask(client, "pablo@example.org")
    path = _link_path(mailbox, "pablo@example.org")
    weak = client.post(path, {"new_password1": "123", "new_password2": "123"}, HTTP_ACCEPT_LANGUAGE="en")
    assert weak.status_code == 400 and "too short" in weak.content.decode()
    # (not a login: Django's link is also spent by signing in meanwhile)
    assert get_user_model().objects.get(username="pablo").check_password("pw-1234567")
    assert client.post(path, {"new_password1": NEW, "new_password2": NEW}).status_code == 302


def test_asking_too_often_is_refused_with_a_clear_message(
    committed_db: None, mailbox: Mailbox, make_user: Any, settings: Any
) -> None:
    settings.CACHO_RATES = {**settings.CACHO_RATES, "password-reset": "2/hour"}
    make_user("quena", verified=True)
    for _ in range(2):
        assert _ask(Client(), "quena@example.org").status_code == 200
    refused = _ask(Client(), "quena@example.org")
    assert refused.status_code == 429
    assert "Too many requests of this kind: try again in" in refused.content.decode()
    mailbox.wait_for("quena@example.org", 2)
    settle()
    assert len(mailbox.to("quena@example.org")) == 2
    # per address too: another email from the same client is refused
    assert _ask(Client(), "other@example.org").status_code == 429


def test_every_device_is_signed_out_by_a_reset(committed_db: None, mailbox: Mailbox, make_user: Any) -> None:
    make_user("rafa", verified=True)
    elsewhere = Client()
    assert elsewhere.login(username="rafa", password="pw-1234567")
    assert elsewhere.get("/account/").status_code == 200
    client = Client()
    _ask(client, "rafa@example.org")
    client.post(_link_path(mailbox, "rafa@example.org"), {"new_password1": NEW, "new_password2": NEW})
    assert elsewhere.get("/account/").status_code == 302  # to the login page
    assert get_user_model().objects.get(username="rafa").check_password(NEW)
