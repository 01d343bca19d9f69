"""The notices' tests: a real SMTP server (tests/accounts/smtp.py) for the email channel, a
real Web Push endpoint (push_server.py) for the push channel, VAPID keys made for the run,
and a club evening whose players have verified addresses."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.accounts.smtp import Mailbox, SmtpServer
from tests.tournaments.helpers import club_with_organiser
from tests.tournaments.notices.push_server import PushServer
from tournaments.models import Table, Tournament
from tournaments.notices.push import generate_keys
from tournaments.services import create_tournament, register

TWO_ROUNDS_1V1 = [{"name": "swiss", "format": "swiss", "params": {"rounds": 2, "table_size": 2}}]
PLAYERS = ("ana", "beto", "caro", "dani")


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpServer]:
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def mailbox(smtp_server: SmtpServer, settings: Any) -> Iterator[Mailbox]:
    from project.config import parse_email_url
    from tournaments.mail.delivery import settle

    email = parse_email_url(smtp_server.url)
    settings.EMAIL_BACKEND = email.backend
    settings.EMAIL_HOST, settings.EMAIL_PORT = email.host, email.port
    settings.EMAIL_USE_TLS, settings.EMAIL_USE_SSL = False, False
    settings.DEFAULT_FROM_EMAIL = email.sender
    settings.CACHO_SITE_URL = "http://testserver"
    smtp_server.mailbox.clear()
    yield smtp_server.mailbox
    settle()


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    settings.VAPID_SUBJECT = "mailto:referee@cacho.test"


@pytest.fixture
def push_server() -> Iterator[PushServer]:
    server = PushServer()
    yield server
    server.stop()


@dataclass
class Evening:
    tournament: Tournament
    organiser: Any
    players: dict[str, Any]

    def client(self, name: str, language: str = "en") -> APIClient:
        client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
        client.force_authenticate(self.players[name])
        return client

    def table_of(self, name: str, number: int = 1) -> Table:
        return Table.objects.get(
            round__tournament=self.tournament, round__number=number, seats__entry__name=name
        )


@pytest.fixture
def evening(make_user: Any) -> Evening:
    """Four players with verified addresses registered for a two-round Swiss of 1v1 tables
    (not started)."""
    from tournaments.accounts.models import Account

    club, organiser = club_with_organiser(make_user, "notices")
    tournament = create_tournament(club.pk, organiser, name="Jueves", ruleset="dudo", stages=TWO_ROUNDS_1V1)
    players = {}
    for name in PLAYERS:
        user = make_user(name, email=f"{name}@example.org")
        Account.objects.update_or_create(user=user, defaults={"verified_email": user.email, "language": "en"})
        register(tournament.pk, organiser, name=name, user=user)
        players[name] = user
    return Evening(tournament, organiser, players)
