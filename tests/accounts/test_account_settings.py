"""The account's own settings, as pages and as the API: display name and language, the
password, signing out of every device; and the API's reset and verification steps."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.accounts.smtp import Mailbox
from tournaments.accounts.models import Account

pytestmark = [pytest.mark.sqlite_too]

NEW = "a-brand-new-phrase-42"


def _signed_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password="pw-1234567")
    return client


def test_display_name_and_language(committed_db: None, make_user: Any) -> None:
    user = make_user("ana")
    client = _signed_in(user)
    page = client.get("/account/", HTTP_ACCEPT_LANGUAGE="es")
    assert page.status_code == 200 and "Mi cuenta" in page.content.decode()
    saved = client.post(
        "/account/", {"action": "profile", "display_name": "  Ana   la Brava ", "language": "en"}
    )
    assert saved.status_code == 302
    account = Account.objects.get(user=user)
    assert (account.display_name, account.language) == ("Ana la Brava", "en")
    bad = client.post("/account/", {"action": "profile", "display_name": "x" * 65, "language": "fr"})
    assert bad.status_code == 400
    account.refresh_from_db()
    assert (account.display_name, account.language) == ("Ana la Brava", "en")


def test_changing_the_password_signs_out_the_other_devices(committed_db: None, make_user: Any) -> None:
    user = make_user("beto")
    here, there = _signed_in(user), _signed_in(user)
    Token.objects.create(user=user)
    wrong = here.post(
        "/account/",
        {"action": "password", "old_password": "nope", "new_password1": NEW, "new_password2": NEW},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert wrong.status_code == 400 and "Your old password was entered incorrectly" in wrong.content.decode()
    changed = here.post(
        "/account/",
        {"action": "password", "old_password": "pw-1234567", "new_password1": NEW, "new_password2": NEW},
    )
    assert changed.status_code == 302
    assert here.get("/account/").status_code == 200  # this device stays signed in
    assert there.get("/account/").status_code == 302  # the other one is sent to the login page
    assert not Token.objects.filter(user=user).exists()
    assert get_user_model().objects.get(pk=user.pk).check_password(NEW)


def test_sign_out_everywhere(committed_db: None, make_user: Any) -> None:
    user, other = make_user("caro"), make_user("dani")
    phone, laptop, someone_else = _signed_in(user), _signed_in(user), _signed_in(other)
    Token.objects.create(user=user)
    done = laptop.post("/account/", {"action": "sign-out-everywhere"}, HTTP_ACCEPT_LANGUAGE="en")
    assert (
        done.status_code == 200
        and "Every device signed in to your account is signed out" in done.content.decode()
    )
    assert phone.get("/account/").status_code == 302 and laptop.get("/account/").status_code == 302
    assert someone_else.get("/account/").status_code == 200
    assert not Token.objects.filter(user=user).exists()


def test_the_account_api(committed_db: None, mailbox: Mailbox, make_user: Any) -> None:
    user = make_user("eli", verified=True)
    api = APIClient()
    assert api.get("/api/me/account").status_code in (401, 403)
    api.force_authenticate(user)
    me = api.get("/api/me/account").json()
    assert me == {
        "username": "eli",
        "display_name": "",
        "email": "eli@example.org",
        "email_verified": True,
        "pending_email": "",
        "language": "",
    }
    assert (
        api.patch("/api/me/account", {"display_name": "Eli"}, format="json").json()["display_name"] == "Eli"
    )
    bad = api.patch("/api/me/account", {"language": "fr"}, format="json")
    assert bad.status_code == 400
    for kind in ("json", "multipart"):  # a misspelt field is refused, not ignored
        misspelt = api.patch("/api/me/account", {"display_nam": "Elias"}, format=kind)
        assert (misspelt.status_code, misspelt.json()["code"]) == (400, "unknown-field"), kind
    assert api.get("/api/me/account").json()["display_name"] == "Eli"
    boundary = "b0d4"
    for body, status, code in (
        (f"--{boundary}\r\n0.005--{boundary}--\r\n", 400, "malformed-multipart"),  # a part with no field
        (f"--{boundary}--\r\n", 200, None),  # an empty form: nothing to change
    ):
        answer = api.generic(
            "PATCH", "/api/me/account", body, content_type=f"multipart/form-data; boundary={boundary}"
        )
        assert (answer.status_code, answer.json().get("code")) == (status, code), body
    assert api.get("/api/me/account").json()["display_name"] == "Eli"
    wrong = api.post(
        "/api/me/account/password", {"current_password": "x", "new_password": NEW}, format="json"
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "password-wrong"
    weak = api.post(
        "/api/me/account/password", {"current_password": "pw-1234567", "new_password": "1"}, format="json"
    )
    assert weak.status_code == 400 and weak.json()["code"] == "password-invalid"
    assert get_user_model().objects.get(pk=user.pk).check_password("pw-1234567")
    moved = api.post(
        "/api/me/account/email",
        {"email": "eli2@example.org", "current_password": "pw-1234567"},
        format="json",
    )
    assert moved.status_code == 202 and moved.json() == {"pending_email": "eli2@example.org"}
    [message] = mailbox.wait_for("eli2@example.org")
    [link] = [link for link in message.links() if "/account/verify/" in link]
    token = urlsplit(link).path.split("/")[3]
    verified = APIClient().post("/api/account/verify-email", {"token": token}, format="json")
    assert verified.status_code == 200 and verified.json()["email"] == "eli2@example.org"
    assert verified.json()["email_verified"] is True
    broken = APIClient().post("/api/account/verify-email", {"token": token + "x"}, format="json")
    assert broken.status_code == 400 and broken.json()["code"] == "verify-link-invalid"
    ended = api.post("/api/me/account/sign-out-everywhere")
    assert ended.status_code == 200 and ended.json() == {"sessions_ended": 0}


def test_the_reset_api(committed_db: None, mailbox: Mailbox, make_user: Any, settings: Any) -> None:
    make_user("fede", verified=True)
    anonymous = APIClient()
    for email in ("fede@example.org", "nobody@example.org"):
        answer = anonymous.post(
            "/api/account/password-reset", {"email": email}, format="json", HTTP_ACCEPT_LANGUAGE="en"
        )
        assert (
            answer.status_code == 202
            and "If an account has this confirmed address" in answer.json()["detail"]
        )
    invalid = anonymous.post("/api/account/password-reset", {"email": "not an address"}, format="json")
    assert invalid.status_code == 400 and invalid.json()["code"] == "email-invalid"
    [message] = mailbox.wait_for("fede@example.org")
    [link] = [link for link in message.links() if "/account/reset/" in link]
    _, _, _, uid, token, _ = urlsplit(link).path.split("/")
    body = {"uid": uid, "token": token, "new_password": NEW}
    assert anonymous.post("/api/account/password-reset/confirm", body, format="json").status_code == 204
    assert Client().login(username="fede", password=NEW)
    reused = anonymous.post(
        "/api/account/password-reset/confirm", {**body, "new_password": "other-phrase-77"}, format="json"
    )
    assert reused.status_code == 400 and reused.json()["code"] == "reset-link-invalid"
    settings.CACHO_RATES = {**settings.CACHO_RATES, "password-reset": "1/hour"}
    limited = anonymous.post("/api/account/password-reset", {"email": "fede@example.org"}, format="json")
    assert limited.status_code == 429 and limited.json()["code"] == "rate-limited"


def test_sign_out_everywhere_over_the_api_keeps_the_callers_own(committed_db: None, make_user: Any) -> None:
    user = make_user("gabi")
    phone, laptop = _signed_in(user), _signed_in(user)
    token = Token.objects.create(user=user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    ended = api.post("/api/me/account/sign-out-everywhere")
    assert ended.status_code == 200 and ended.json() == {"sessions_ended": 2}
    assert phone.get("/account/").status_code == 302 and laptop.get("/account/").status_code == 302
    assert api.get("/api/me/account").status_code == 200  # the caller's token stays
    browser = _signed_in(user)
    other = _signed_in(user)
    csrf = APIClient(enforce_csrf_checks=False)
    csrf.cookies = browser.cookies
    assert csrf.post("/api/me/account/sign-out-everywhere").json() == {"sessions_ended": 1}
    assert browser.get("/account/").status_code == 200 and other.get("/account/").status_code == 302
    assert not Token.objects.filter(user=user).exists()
