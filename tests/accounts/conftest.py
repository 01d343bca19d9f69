"""The accounts and mail tests: a real SMTP server (aiosmtpd) for the whole session, the
site's mail pointed at it, and Celery's tasks run in-process (the default install: mail
leaves from a thread of the process after the commit)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.accounts.smtp import Mailbox, SmtpServer


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def mailbox(smtp_server: SmtpServer, settings: Any) -> Iterator[Mailbox]:
    """The site's EMAIL_URL set to the test server; its messages, empty at the start."""
    from project.config import parse_email_url
    from tournaments.mail.delivery import settle

    email = parse_email_url(smtp_server.url)
    settings.EMAIL_BACKEND = email.backend
    settings.EMAIL_HOST, settings.EMAIL_PORT = email.host, email.port
    settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = False, False
    settings.DEFAULT_FROM_EMAIL = email.sender
    settings.CACHO_SITE_URL = "http://testserver"
    settings.CACHO_TIMERS = "off"
    smtp_server.mailbox.clear()
    yield smtp_server.mailbox
    settle()


@pytest.fixture(autouse=True)
def quick_hashes(settings: Any) -> None:
    """Passwords hashed cheaply: these tests set and check many (PBKDF2 costs ~0.5 s each here)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def tasks_in_process() -> Iterator[None]:
    from project.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture
def make_user() -> Callable[..., Any]:
    """An account; `verified=True` marks its email as verified. (Not pytest-django's
    `django_user_model`: that asks for the rolled-back `db`, where nothing commits.)"""
    from django.contrib.auth import get_user_model

    counter = iter(range(1, 100000))

    def make(name: str | None = None, *, verified: bool = False, **extra: Any) -> Any:
        from tournaments.accounts.models import Account

        username = name or f"user{next(counter)}"
        extra.setdefault("email", f"{username}@example.org")
        user = get_user_model().objects.create_user(username=username, password="pw-1234567", **extra)
        Account.objects.create(user=user, verified_email=user.email if verified else "")
        return user

    return make
