"""A player who forgot their password, in Chromium on a phone: "forgot your password?" on
the login page, the mail read from the real SMTP server that the Celery worker sent it to,
the link followed, a new password chosen, signed in with it; the spent link refused.
Screenshots in both languages' pages and axe on each step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.accounts.smtp import SmtpServer
from tests.frontend.conftest import ConsoleWatch, shot
from tests.frontend.test_accessibility import axe_clean
from tests.test_foundation.helpers import Server

pytestmark = [pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
NEW = "a-fresh-pass-phrase-31"


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture
def env(env: dict[str, str], smtp: SmtpServer) -> dict[str, str]:
    """The server and the worker send their mail to the test's SMTP server."""
    return {**env, "EMAIL_URL": smtp.url, "SITE_URL": "http://127.0.0.1:9"}


def _user(name: str) -> Any:
    from django.contrib.auth import get_user_model

    from tournaments.accounts.models import Account

    user = get_user_model().objects.create_user(name, f"{name}@example.org", "the-forgotten-one-8")
    Account.objects.create(user=user, verified_email=user.email, language="es")
    return user


@pytest.mark.parametrize("locale", ["es", "en"])
def test_forgot_password_reset_and_sign_in(
    browser: Any, server: Server, worker: object, smtp: SmtpServer, console_watch: ConsoleWatch, locale: str
) -> None:
    _user("olvido")
    context = browser.new_context(locale=locale, viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": locale, "url": server.url}])
    page = context.new_page()
    console_watch.watch(page)
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(30_000)
    try:
        page.goto(server.url + "/login/")
        page.click("#forgot-password")
        page.wait_for_selector("#password-reset-form")
        page.fill("#id_email", "Olvido@example.org")
        shot(page, f"reset-ask-{locale}")
        axe_clean(page, f"reset-ask-{locale}")
        page.click("#password-reset-form button[type=submit]")
        page.wait_for_selector("#account-message[data-kind=done]")
        shot(page, f"reset-asked-{locale}")
        axe_clean(page, f"reset-asked-{locale}")

        # the mail: sent by the Celery worker, in the language the player asked in
        [mail] = smtp.mailbox.wait_for("olvido@example.org", timeout=30)
        subject = {"es": "Cacho: elige una contraseña nueva", "en": "Cacho: choose a new password"}[locale]
        assert mail.subject == subject
        [link] = [link for link in mail.links() if "/account/reset/" in link]
        assert link.startswith("http://127.0.0.1:9/")  # SITE_URL names the links
        path = urlsplit(link).path
        page.goto(server.url + path)
        page.wait_for_selector("#password-set-form")
        page.fill("#id_new_password1", NEW)
        page.fill("#id_new_password2", NEW)
        shot(page, f"reset-choose-{locale}")
        axe_clean(page, f"reset-choose-{locale}")
        page.click("#password-set-form button[type=submit]")
        page.wait_for_selector("#password-reset-done")
        assert "/login/" in page.url
        shot(page, f"reset-done-{locale}")
        axe_clean(page, f"reset-done-{locale}")

        page.fill("#id_username", "olvido")
        page.fill("#id_password", NEW)
        page.click("form.stack button[type=submit]")
        page.wait_for_url("**/me/")
        assert page.inner_text("h1") == "olvido"

        spent = context.new_page()  # not watched: the spent link answers 400 on purpose
        spent.goto(server.url + path)
        spent.wait_for_selector("#account-message[data-kind=error] #account-again")
        refused = {"es": "venció o ya se usó", "en": "has expired or was used already"}[locale]
        assert refused in spent.inner_text("#account-message")
        shot(spent, f"reset-spent-{locale}")
        axe_clean(spent, f"reset-spent-{locale}")
    finally:
        context.close()


def test_the_account_page_changes_the_email_through_the_mailed_link(
    browser: Any, server: Server, worker: object, smtp: SmtpServer, console_watch: ConsoleWatch
) -> None:
    """The account page on a phone, in Spanish: a new address asked for, its link (mailed by
    the worker) followed, the page then shows the new address confirmed."""
    user = _user("cambia")
    context = browser.new_context(locale="es", viewport=PHONE)
    context.add_cookies([{"name": "django_language", "value": "es", "url": server.url}])
    page = console_watch.watch(context.new_page())
    page.set_default_timeout(10_000)
    page.set_default_navigation_timeout(30_000)
    try:
        page.goto(server.url + "/login/")
        page.fill("#id_username", "cambia")
        page.fill("#id_password", "the-forgotten-one-8")
        page.click("form.stack button[type=submit]")
        page.wait_for_url("**/me/")
        page.goto(server.url + "/account/")
        page.wait_for_selector("#email-state[data-verified='1']")
        shot(page, "account-es")
        axe_clean(page, "account-es")
        page.fill("#email-form #id_email", "nuevo@example.org")
        page.fill("#email-form #id_current_password", "the-forgotten-one-8")
        page.click("#email-form button[type=submit]")
        page.wait_for_selector("#account-done[data-done=email]")
        page.wait_for_selector("#email-pending")
        shot(page, "account-email-pending-es")
        axe_clean(page, "account-email-pending-es")
        [mail] = smtp.mailbox.wait_for("nuevo@example.org", timeout=30)
        assert mail.subject == "Cacho: confirma tu dirección de correo"
        [link] = [link for link in mail.links() if "/account/verify/" in link]
        page.goto(server.url + urlsplit(link).path)
        page.wait_for_selector("#account-message[data-kind=done]")
        assert "nuevo@example.org" in page.inner_text("#account-message")
        page.goto(server.url + "/account/")
        page.wait_for_selector("#email-state[data-verified='1']")
        assert "nuevo@example.org" in page.inner_text("#account-email")
        assert smtp.mailbox.to(user.email) == []  # the old address was told nothing
    finally:
        context.close()
