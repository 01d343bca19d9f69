"""Failed logins (frontend/limits.py, docs/security.md "Rate limits"): one person's failures
lock only that person's name at that address; a name tried from elsewhere is slowed down
for a short while, never locked for long, and not at all where it logged in before."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from cacho.edge import limits

pytestmark = pytest.mark.usefixtures("committed_db")

CLUB = "10.1.1.1"  # a club's shared address
PASSWORD = "a-long-pass-123"


@pytest.fixture
def rates(settings: Any) -> dict[str, str]:
    settings.CACHO_RATES = {**settings.CACHO_RATES}
    limits.clear()
    yield settings.CACHO_RATES
    limits.clear()


def login(name: str, password: str, address: str) -> int:
    return Client(REMOTE_ADDR=address).post("/login/", {"username": name, "password": password}).status_code


def test_one_members_failures_do_not_lock_out_another_on_the_same_address(rates: dict[str, str]) -> None:
    for name in ("lola", "pepe"):
        get_user_model().objects.create_user(name, password=PASSWORD)
    statuses = [login("lola", "wrong", CLUB) for _ in range(10)]
    assert statuses[:5] == [200] * 5 and statuses[-1] == 429  # her name is slowed, then locked here
    assert login("lola", PASSWORD, CLUB) == 429
    assert login("pepe", PASSWORD, CLUB) == 302  # another member at the same address: in


def test_a_name_tried_from_elsewhere_is_slowed_briefly_not_locked(rates: dict[str, str]) -> None:
    get_user_model().objects.create_user("lola", password=PASSWORD)
    assert login("lola", PASSWORD, "10.2.2.2") == 302  # her own address, known from now on
    # Someone who knows her name tries it from many addresses.
    statuses = [login("lola", "wrong", f"10.9.0.{n}") for n in range(30)]
    assert 429 in statuses  # guessing is slowed down for the name as a whole
    refused = Client(REMOTE_ADDR="10.9.1.1").post("/login/", {"username": "lola", "password": PASSWORD})
    assert refused.status_code == 429 and int(refused["Retry-After"]) <= 60  # a short wait, not 15 min
    assert login("lola", PASSWORD, "10.2.2.2") == 302  # where she logged in before: not slowed


def test_an_address_spraying_names_is_locked(rates: dict[str, str]) -> None:
    rates["login-failed-address"] = "20/15min"
    statuses = [login(f"name{n}", "wrong", "10.3.3.3") for n in range(25)]
    assert statuses[:20] == [200] * 20 and statuses[-1] == 429
