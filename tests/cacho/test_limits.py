"""Rate limits (cacho.edge.limits): each a setting, each refusal a 429 JSON `rate-limited` with
`retry_after` (or the 429 page for login and signup), counted across processes in Redis."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from cacho.edge import limits
from cacho.models import Event
from tests.cacho.test_api import client_for, new_match, on_turn

pytestmark = pytest.mark.usefixtures("committed_db")


@pytest.fixture
def rates(settings: Any) -> dict[str, str]:
    settings.CACHO_RATES = {**settings.CACHO_RATES}
    limits.clear()
    return settings.CACHO_RATES  # type: ignore[no-any-return]


def test_rates_parse_and_a_window_refuses_past_its_count(rates: dict[str, str]) -> None:
    assert limits.Rate.parse("5/15min") == limits.Rate(5, 900)
    assert limits.Rate.parse("10/s") == limits.Rate(10, 1)
    assert limits.Rate.parse("600/hour") == limits.Rate(600, 3600)
    with pytest.raises(ValueError):
        limits.Rate.parse("ten a minute")
    rates["probe"] = "3/min"
    moment = 60 * 16_667 + 20.0  # 20 s into a minute's window
    assert [limits.hit("probe", "me", moment) for _ in range(3)] == [None, None, None]
    assert limits.hit("probe", "me", moment) == pytest.approx(40.0)
    assert limits.hit("probe", "someone else", moment) is None
    assert limits.hit("probe", "me", moment + 40) is None  # the next window


def test_a_leased_count_allows_its_limit_from_a_twentieth_of_the_round_trips(rates: dict[str, str]) -> None:
    """One process: exactly the limit a window, its count taken from Redis 5 at a time."""
    rates["probe"] = "100/min"
    moment = 60 * 16_667 + 20.0
    key = f"{settings.CACHO_RATES_PREFIX}:probe:me:16667"
    shared = redis.Redis.from_url(settings.CACHO_RATES_REDIS)
    assert limits.hit_leased("probe", "me", moment) is None
    assert int(shared.get(key)) == 5  # a lease taken: the next 4 ask nothing of Redis
    answers = [limits.hit_leased("probe", "me", moment) for _ in range(99)]
    assert answers == [None] * 99
    assert int(shared.get(key)) == 100  # 20 leases of 5
    assert limits.hit_leased("probe", "me", moment) == pytest.approx(40.0)
    assert limits.hit_leased("probe", "me", moment + 40) is None  # the next window
    assert limits.hit_leased("probe", "someone else", moment) is None


def test_leases_of_several_processes_never_allow_more_than_the_limit(rates: dict[str, str]) -> None:
    """Three processes (a counter each) taking turns: never more than 100 in the window, and
    at most the leases' unspent tokens (4 per other process) refused early."""
    ttl, lease, most = 61, 5, 100
    key = f"{settings.CACHO_RATES_PREFIX}:probe:shared:1"
    processes = [limits.Counter() for _ in range(3)]
    turns = [processes[index % 3] for index in range(130)] + [processes[0]] * 20
    allowed = sum(bool(process.take(key, ttl, lease, most)) for process in turns)
    assert 100 - 2 * (lease - 1) <= allowed <= 100
    # The others spend what they still hold, and nothing more.
    spent = sum(bool(process.take(key, ttl, lease, most)) for process in processes[1:] for _ in range(10))
    assert allowed + spent == 100


def test_a_lease_without_redis_counts_in_the_process_and_one_redis_cannot_reach_lets_through(
    settings: Any,
) -> None:
    """Embedded mode (no Redis): the process counts every token itself, exactly. A Redis
    that does not answer lets the move through (logged), as `hit` does."""
    key = f"{settings.CACHO_RATES_PREFIX}:probe:alone:1"
    settings.CACHO_RATES_REDIS = None
    alone = limits.Counter()
    assert [alone.take(key, 61, 5, 3) for _ in range(4)] == [True, True, True, False]
    settings.CACHO_RATES_REDIS = "redis://127.0.0.1:1/0"  # nothing listens there
    unreachable = limits.Counter()
    assert unreachable.take(key, 61, 5, 3) is None


def test_the_api_throttles_anonymous_and_logged_in_clients(rates: dict[str, str]) -> None:
    rates["api-anon"], rates["api-user"] = "5/min", "8/min"
    anonymous = APIClient()
    statuses = [anonymous.get("/api/rulesets").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    refused = anonymous.get("/api/clubs")
    assert refused.status_code == 429 and refused.json()["code"] == "rate-limited"
    assert refused.json()["retry_after"] >= 1 and int(refused["Retry-After"]) >= 1
    # A client cannot name itself another address.
    assert anonymous.get("/api/rulesets", HTTP_X_FORWARDED_FOR="10.9.8.7").status_code == 429
    user = client_for("many")
    assert [user.get("/api/rulesets").status_code for _ in range(9)] == [200] * 8 + [429]


def test_commands_are_limited_per_user_and_refused_before_any_work(rates: dict[str, str]) -> None:
    rates["commands"] = "2/min"
    match_id, clients = new_match()
    player, version = on_turn(match_id, clients["ana"])
    url = f"/api/matches/{match_id}/commands"
    client = clients[player]
    assert client.post(url, {"command_id": "c1", "type": "bid", "quantity": 9, "face": 7}).status_code == 400
    assert client.post(url, {"command_id": "c2", "type": "bid", "quantity": 9, "face": 7}).status_code == 400
    refused = client.post(url, {"command_id": "c3", "type": "bid", "quantity": 2, "face": 3}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "rate-limited"
    assert Event.objects.filter(stream_id=match_id).count() == version


def test_failed_logins_are_throttled_per_address_and_name(rates: dict[str, str]) -> None:
    rates["login-failed"] = "3/15min"
    get_user_model().objects.create_user("lola", password="a-long-pass-123")
    client = Client()
    for _ in range(3):
        page = client.post("/login/", {"username": "lola", "password": "wrong"})
        assert page.status_code == 200
    locked = client.post("/login/", {"username": "lola", "password": "a-long-pass-123"})
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert b"429" in locked.content
    # Locked at that address only (tests/cacho/test_login_throttle.py); a good login counts nothing.
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert other.post("/login/", {"username": "LOLA", "password": "wrong"}).status_code == 200
    limits.clear()
    for _ in range(5):
        good = Client().post("/login/", {"username": "lola", "password": "a-long-pass-123"})
        assert good.status_code == 302


def test_signups_are_throttled_per_address(rates: dict[str, str]) -> None:
    rates["signup"] = "2/hour"
    client = Client()
    for number in range(2):
        body = {
            "username": f"new{number}",
            "email": f"new{number}@example.org",
            "password1": "Ab-12345-xyz",
            "password2": "Ab-12345-xyz",
        }
        assert client.post("/signup/", body).status_code == 302
        client.logout()
    body = {
        "username": "new9",
        "email": "new9@example.org",
        "password1": "Ab-12345-xyz",
        "password2": "Ab-12345-xyz",
    }
    assert client.post("/signup/", body).status_code == 429
    assert not get_user_model().objects.filter(username="new9").exists()
