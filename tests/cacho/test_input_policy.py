"""The edges' input policy over the API (cacho.edge.inputs, cacho.api.parsers, project.edge.edges):
NUL and non-characters refused with a code, deep or huge JSON refused before any work,
and every API error a JSON `{code, message}` — 400, 403, 404, 405, 409, 413, 429, 500 —
with nothing stored by a refused request."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cacho.edge import inputs
from cacho.models import Event, Match
from tests.cacho.test_api import RECORD, client_for, new_match, on_turn, referee_ref  # noqa: F401

# "keeper" may import records (the import check `referee_ref` configures).
pytestmark = [pytest.mark.usefixtures("committed_db", "referee_ref"), pytest.mark.sqlite_too]

DEEP = "[" * 100_000 + "]" * 100_000


def is_error(response: Any, status: int, code: str | None = None) -> bool:
    body = response.json()
    return (
        response.status_code == status
        and response["Content-Type"].startswith("application/json")
        and isinstance(body.get("code"), str)
        and isinstance(body.get("message"), str)
        and (code is None or body["code"] == code)
    )


def test_nul_and_non_characters_are_refused_with_a_code_and_store_nothing() -> None:
    match_id, clients = new_match()
    player, _ = on_turn(match_id, clients["ana"])
    url = f"/api/matches/{match_id}/commands"
    before = (Event.objects.count(), Match.objects.count())
    for command_id in ("a\x00b", "\ud800", "x\ufffe", "\U0010ffff", "\ufdd0"):
        raw = json.dumps({"command_id": command_id, "type": "bid", "quantity": 2, "face": 3})
        response = clients[player].post(url, raw, content_type="application/json")
        assert is_error(response, 400, "invalid-text"), (command_id, response.content)
    creator = client_for("carla")
    for name in ("na\x00me", "\udfff"):
        body = json.dumps({"ruleset": "dudo", "players": [name, "beto"]})
        response = creator.post("/api/matches", body, content_type="application/json")
        assert is_error(response, 400, "invalid-text"), response.content
    record = json.loads(json.dumps(RECORD))
    record["players"][0] = "an\x00a"
    keeper = client_for("keeper")
    assert is_error(keeper.post("/api/matches/import", record, format="json"), 400, "invalid-text")
    # Keys too, and form fields, and the query string.
    assert is_error(clients[player].post(url, {"type\x00": "dudo"}, format="json"), 400, "invalid-text")
    assert is_error(clients[player].post(url, {"command_id": "a\x00"}), 400, "invalid-text")
    assert is_error(clients[player].get(f"/api/matches/{match_id}/events?as=%00"), 400, "invalid-text")
    assert clients[player].get("/players/a%00b/").status_code == 400
    assert (Event.objects.count(), Match.objects.count()) == before


def test_deep_json_is_refused_on_every_endpoint_that_reads_a_body() -> None:
    from django.contrib.auth import get_user_model

    from tournaments.clubs.members import create_club
    from tournaments.services import create_tournament

    match_id, _ = new_match()
    owner = client_for("owner")
    keeper = client_for("keeper")
    user = get_user_model().objects.get(username="owner")
    club = create_club("Deep", "deep", user)
    tournament = create_tournament(club.pk, user, name="T", ruleset="dudo")
    for method, url in (
        ("POST", f"/api/matches/{match_id}/commands"),
        ("POST", "/api/clubs"),
        ("POST", "/api/matches/import"),
        ("PATCH", f"/api/tournaments/{tournament.pk}"),
        ("POST", "/api/matches"),
    ):
        client = keeper if url == "/api/matches/import" else owner
        response = client.generic(method, url, DEEP, content_type="application/json")
        assert is_error(response, 400, "json-too-deep"), (url, response.status_code, response.content[:200])
        # 33 levels: parsed, and still refused (the policy's depth, not the parser's stack).
        nested = json.dumps({"command_id": "n", "type": "dudo", "x": json.loads("[" * 33 + "]" * 33)})
        response = client.generic(method, url, nested, content_type="application/json")
        assert is_error(response, 400, "json-too-deep"), (url, response.content[:200])
    assert Event.objects.filter(stream_id=match_id).count() == 2


def test_a_huge_body_is_413_and_errors_are_json_at_every_status(settings: Any) -> None:
    match_id, clients = new_match()
    ana = clients["ana"]
    huge = json.dumps({"command_id": "h", "type": "dudo", "pad": "x" * 10_000_000})
    response = ana.post(f"/api/matches/{match_id}/commands", huge, content_type="application/json")
    assert is_error(response, 413, "body-too-large")
    # 404: an id past bigint, an unknown path, a bad uuid; 405; 403; 409.
    assert is_error(ana.get(f"/api/tournaments/{2**70}"), 404)
    assert is_error(ana.get(f"/api/clubs/{2**70}"), 404)
    assert is_error(ana.get("/api/no-such-thing"), 404, "not-found")
    assert is_error(ana.get("/api/matches/not-a-uuid"), 404)
    assert is_error(ana.delete(f"/api/matches/{match_id}"), 405, "method-not-allowed")
    assert is_error(client_for(None).post("/api/matches", {}, format="json"), 403)
    player, _ = on_turn(match_id, ana)
    bid = {"command_id": "r1", "type": "bid", "quantity": 2, "face": 3}
    assert clients[player].post(f"/api/matches/{match_id}/commands", bid, format="json").status_code == 201
    reused = {**bid, "face": 4}
    assert is_error(clients[player].post(f"/api/matches/{match_id}/commands", reused, format="json"), 409)
    # NaN and Infinity are not JSON.
    response = ana.post(
        "/api/matches", '{"ruleset": "dudo", "players": NaN}', content_type="application/json"
    )
    assert is_error(response, 400, "malformed-json")


def the_referee_check_fails(match_id: object, user: object) -> bool:
    raise RuntimeError("a referee check that fails")


def test_an_unhandled_error_under_the_api_is_a_json_500(settings: Any) -> None:
    match_id, _ = new_match()
    settings.CACHO_REFEREE_CHECK = "tests.cacho.test_input_policy.the_referee_check_fails"
    client = client_for("stranger")
    client.raise_request_exception = False
    assert is_error(client.get(f"/api/matches/{match_id}"), 500, "server-error")


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, inner in value.items() for text in [key, *strings(inner)]]
    if isinstance(value, list):
        return [text for inner in value for text in strings(inner)]
    return []


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(json_values)
def test_the_policy_accepts_clean_json_and_refuses_only_with_its_codes(value: Any) -> None:
    text = json.dumps(value)
    plain = "".join(strings(value))
    try:
        parsed = inputs.loads(text, max_bytes=1_000_000)
    except inputs.InputError as error:
        assert error.code == "invalid-text" and inputs.bad_text(plain), (error.code, text)
    else:
        assert parsed == value and not inputs.bad_text(plain)
    with pytest.raises(inputs.InputError) as refused:
        inputs.loads("[" * 5000 + "]" * 5000, max_bytes=1_000_000)
    assert refused.value.code == "json-too-deep"
