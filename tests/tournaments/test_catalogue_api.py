"""`GET /api/rulesets` (the options catalogue, public, translated) and `GET /api/me/memberships`
(the clubs of the logged-in user with their roles), and both in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from cacho.engine.bidding.rules import OPTIONS
from tests.tournaments.helpers import club_with_organiser
from tournaments.clubs.members import grant_role as add_member
from tournaments.competition.errors import CompetitionError
from tournaments.competition.tables import LARGEST_TABLE, SMALLEST_TABLE
from tournaments.models import Membership
from tournaments.reads import catalogue
from tournaments.services import formats

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite_too]


def test_the_rulesets_catalogue_is_public_and_complete() -> None:
    response = APIClient().get("/api/rulesets", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    data = response.json()
    by_code = {r["ruleset"]: r for r in data}
    assert list(by_code) == ["dudo", "cacho-chileno", "cacho-online", "liars-dice", "alalay"]
    assert {code: r["game"] for code, r in by_code.items()} == {
        "dudo": "dudo",
        "cacho-chileno": "dudo",
        "cacho-online": "dudo",
        "liars-dice": "dudo",
        "alalay": "alalay",
    }
    # Pairs and teams where a seat can be a team: Alalay alone.
    assert {code for code, r in by_code.items() if r["team_seats"]} == {"alalay"}
    for code, specs in OPTIONS.items():  # every engine option, its values and default
        options = {o["name"]: o for o in by_code[code]["options"]}
        assert set(options) == set(specs)
        for name, (values, default) in specs.items():
            assert options[name]["values"] == list(values)
            assert options[name]["default"] == default
            assert options[name]["help"] and options[name]["label"]
    alalay = {o["name"]: o for o in by_code["alalay"]["options"]}
    assert alalay["dormida_on_full_reroll"]["default"] is True
    assert alalay["turn_exempt_if_made_hand"] == {**alalay["turn_exempt_if_made_hand"], "type": "boolean"}
    raise_rule = {o["name"]: o for o in by_code["dudo"]["options"]}["raise_rule"]
    assert raise_rule["type"] == "choice" and set(raise_rule["value_labels"]) == {"standard", "strict"}
    assert by_code["cacho-online"]["options"] == []
    assert all(r["description"] for r in data)


def test_the_catalogue_offers_each_games_time_policies_its_default_first() -> None:
    """The create form's "Rounds at time" choices come from here (docs/rules.md §9.1)."""
    by_code = {r["ruleset"]: r for r in APIClient().get("/api/rulesets", HTTP_ACCEPT_LANGUAGE="en").json()}
    offered = {code: [p["value"] for p in r["time_policies"]] for code, r in by_code.items()}
    assert offered["dudo"] == ["dice-left", "two-more-rounds", "sudden-death"]
    assert offered["alalay"] == ["sheet-as-it-stands", "finish-round-of-turns"]
    for ruleset in by_code.values():
        assert [p["default"] for p in ruleset["time_policies"]] == [True] + [False] * (
            len(ruleset["time_policies"]) - 1
        )
        assert all(p["label"] and p["help"] for p in ruleset["time_policies"])


def test_the_catalogue_speaks_the_request_language() -> None:
    spanish = APIClient().get("/api/rulesets", HTTP_ACCEPT_LANGUAGE="es").json()
    english = APIClient().get("/api/rulesets", HTTP_ACCEPT_LANGUAGE="en").json()
    es = {o["name"]: o for o in spanish[0]["options"]}
    en = {o["name"]: o for o in english[0]["options"]}
    assert en["calza_out_of_turn"]["label"] == "Calza out of turn"
    assert es["calza_out_of_turn"]["label"] == "Calza fuera de turno"
    assert es["palifico_wild_pacos"]["help"] != en["palifico_wild_pacos"]["help"]
    assert {r["ruleset"]: r["name"] for r in spanish}["liars-dice"] == "Dados del mentiroso"


def test_my_memberships(make_user: Any) -> None:
    club, owner = club_with_organiser(make_user, "zeta")
    other, _owner = club_with_organiser(make_user, "alfa")
    player = make_user("pia")
    add_member(club.pk, player, Membership.PLAYER, player)
    add_member(club.pk, player, Membership.REFEREE, owner)
    add_member(other.pk, player, Membership.PLAYER, player)
    client = APIClient()
    client.force_authenticate(player)
    response = client.get("/api/me/memberships", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    data = response.json()
    assert [m["club"]["name"] for m in data] == ["Club alfa", "Club zeta"]  # by club name
    zeta = data[1]
    assert zeta["club"]["id"] == club.pk and zeta["club"]["slug"] == "zeta"
    assert zeta["roles"] == ["referee", "player"] and zeta["manages"] is False
    assert zeta["role_names"] == ["referee", "player"]
    client.force_authenticate(owner)
    mine = client.get("/api/me/memberships").json()
    assert [(m["club"]["slug"], m["roles"], m["manages"]) for m in mine] == [("zeta", ["owner"], True)]
    nobody = make_user("nobody")
    client.force_authenticate(nobody)
    assert client.get("/api/me/memberships").json() == []


def test_my_memberships_needs_a_login() -> None:
    response = APIClient().get("/api/me/memberships")
    assert response.status_code in (401, 403) and response.json()["code"] == "not-authenticated"


def test_the_new_endpoints_are_in_the_schema() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    assert "get" in paths["/api/rulesets"] and "get" in paths["/api/me/memberships"]
    assert "Ruleset" in schema["components"]["schemas"]
    assert "MyMembership" in schema["components"]["schemas"]


def test_the_stage_formats_offer_what_the_competition_core_accepts() -> None:
    """Every parameter bound the catalogue offers is accepted by the core, one step beyond is
    refused: tables seat 2 to 6 (`competition.tables`)."""
    offered = catalogue.formats()
    sizes = [p for f in offered for p in f["params"] if p["name"] == "table_size"]
    assert sizes and all((p["min"], p["max"]) == (SMALLEST_TABLE, LARGEST_TABLE) == (2, 6) for p in sizes)
    for fmt in offered:
        for p in fmt["params"]:
            if p["type"] == "boolean":
                assert p["default"] is False and p["help"], (fmt["format"], p)
                for value in (True, False):
                    formats.check_plan([{"format": fmt["format"], "params": {p["name"]: value}}])
                with pytest.raises(CompetitionError):
                    formats.check_plan([{"format": fmt["format"], "params": {p["name"]: "yes"}}])
                continue
            assert p["type"] == "integer" and p["min"] <= p["default"] <= p["max"], (fmt["format"], p)
            for value in (p["min"], p["default"], p["max"]):
                formats.check_plan([{"format": fmt["format"], "params": {p["name"]: value}}])
            for value in (p["min"] - 1, p["max"] + 1):
                with pytest.raises(CompetitionError):
                    formats.check_plan([{"format": fmt["format"], "params": {p["name"]: value}}])


def test_single_elimination_offers_a_match_for_third_place() -> None:
    single = {f["format"]: f for f in catalogue.formats()}["single_elimination"]
    assert [(p["name"], p["type"], p["default"]) for p in single["params"]] == [
        ("third_place", "boolean", False)
    ]


def test_the_standings_options_describe_every_scale_in_both_languages() -> None:
    from django.utils import translation

    from tournaments.competition.standings import SCALES, SHARE
    from tournaments.services.stage_data import standings_config

    with translation.override("en"):
        english = catalogue.standings_options()
    with translation.override("es"):
        spanish = catalogue.standings_options()
    assert [s["scale"] for s in english["scales"]] == list(SCALES)
    assert english["default_scale"] == SHARE == standings_config(None, "dudo").scale.kind
    for en, es in zip(english["scales"], spanish["scales"], strict=True):
        assert en["name"] and en["help"] and es["name"] != en["name"] and es["help"] != en["help"]
    share = english["scales"][0]
    assert "1, ⅔, ⅓, 0" in share["help"] and share["available"]
    assert not {s["scale"]: s for s in english["scales"]}["reported"]["available"]
    assert english["bye_points"]["default"] is None and "win" in english["bye_points"]["help"]
    assert spanish["bye_points"]["label"] != english["bye_points"]["label"]
