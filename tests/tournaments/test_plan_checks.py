"""A stage plan that cannot run is refused when it is created, where the plan alone says so,
naming the field to change; at the start, the refusal says which numbers do not fit, in
English and Spanish. A refusal stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.helpers import club_with_organiser
from tournaments.models import Entry, Stage, Tournament, TournamentEvent

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_too]


def api(user: Any) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")  # the site speaks Spanish by default
    client.force_authenticate(user)
    return client


def swiss(name: str = "sw", **advance: int) -> dict[str, Any]:
    params: dict[str, Any] = {"rounds": 2, "table_size": 4}
    if advance:
        params["advance"] = advance
    return {"name": name, "format": "swiss", "params": params}


def create(client: APIClient, club: int, ruleset: str, stages: list[dict[str, Any]] | None) -> Any:
    body: dict[str, Any] = {"club": club, "name": "Martes", "ruleset": ruleset}
    if stages is not None:
        body["stages"] = stages
    return client.post("/api/tournaments", body, format="json")


CANNOT_RUN: list[tuple[str, str, list[dict[str, Any]], str, str, tuple[str, ...]]] = [
    (
        "a Swiss sends on as many as the next stage sends on",
        "dudo",
        [swiss("sw", overall=8), swiss("sw2", overall=8), {"name": "final", "format": "final_table"}],
        "advancement-count",
        "stages[1].params.advance",
        ("8", "“sw2”", "“sw”"),
    ),
    (
        "an Alalay event with more finalists than the stage before sends on",
        "alalay",
        [swiss("sw", overall=4), {"name": "final", "format": "alalay_event", "params": {"finalists": 6}}],
        "too-few-entries",
        "stages[1].params.finalists",
        ("6", "4", "“sw”"),
    ),
    (
        "a final table for more than six",
        "dudo",
        [swiss("sw", overall=8), {"name": "final", "format": "final_table"}],
        "final-table-size",
        "stages[0].params.advance",
        ("8", "6"),
    ),
    (
        "groups that the stage before cannot fill",
        "dudo",
        [
            swiss("sw", overall=6),
            {"name": "groups", "format": "round_robin", "params": {"groups": 4, "advance": {"per_group": 1}}},
            {"name": "cup", "format": "single_elimination"},
        ],
        "stage-too-small",
        "stages[1].params.groups",
        ("4", "8", "6"),
    ),
    (
        "a stage that sends nobody on",
        "dudo",
        [swiss("sw", overall=0), {"name": "final", "format": "final_table"}],
        "advancement-count",
        "stages[0].params.advance",
        ("“sw”",),
    ),
    (
        "overall and per group at once",
        "dudo",
        [swiss("sw", overall=4, per_group=2), {"name": "final", "format": "final_table"}],
        "advancement-mixed",
        "stages[0].params.advance",
        ("“sw”",),
    ),
]


@pytest.mark.parametrize(
    ("ruleset", "stages", "code", "field", "numbers"),
    [case[1:] for case in CANNOT_RUN],
    ids=[case[0] for case in CANNOT_RUN],
)
def test_a_plan_that_cannot_run_is_refused_at_creation_naming_the_field(
    make_user: Any,
    ruleset: str,
    stages: list[dict[str, Any]],
    code: str,
    field: str,
    numbers: tuple[str, ...],
) -> None:
    club, organiser = club_with_organiser(make_user, "plans")
    refused = create(api(organiser), club.pk, ruleset, stages)
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert (body["code"], body["field"]) == (code, field)
    for number in numbers:
        assert number in body["message"], (number, body["message"])
    assert not Tournament.objects.exists() and not TournamentEvent.objects.exists()


def test_a_plan_that_fits_is_created_and_names_no_field(make_user: Any) -> None:
    club, organiser = club_with_organiser(make_user, "fits")
    client = api(organiser)
    for ruleset, stages in [
        ("dudo", [swiss("sw", overall=6), {"name": "final", "format": "final_table"}]),
        ("alalay", [swiss("sw", overall=6), {"name": "final", "format": "alalay_event"}]),
        ("alalay", None),  # the usual Alalay event: its finalists are checked at the start
        (
            "dudo",
            [
                {
                    "name": "groups",
                    "format": "round_robin",
                    "params": {"groups": 2, "advance": {"per_group": 2}},
                },
                {"name": "cup", "format": "single_elimination"},
            ],
        ),
    ]:
        made = create(client, club.pk, ruleset, stages)
        assert made.status_code == 201, made.json()


def _refused_start(
    make_user: Any, slug: str, ruleset: str, stages: list[dict[str, Any]] | None, entries: int
) -> tuple[APIClient, int, Any]:
    club, organiser = club_with_organiser(make_user, slug)
    client = api(organiser)
    made = create(client, club.pk, ruleset, stages)
    assert made.status_code == 201, made.json()
    tournament = made.json()["id"]
    for i in range(1, entries + 1):
        added = client.post(f"/api/tournaments/{tournament}/entries", {"name": f"P{i}"}, format="json")
        assert added.status_code == 201
    logged = TournamentEvent.objects.filter(tournament_id=tournament).count()
    refused = client.post(f"/api/tournaments/{tournament}/start", {}, format="json")
    assert refused.status_code == 400, refused.json()
    # Nothing stored: still open for entries, no stage, no seeds, nothing logged.
    assert Tournament.objects.get(pk=tournament).status == Tournament.REGISTRATION
    assert not Stage.objects.filter(tournament_id=tournament).exists()
    assert set(Entry.objects.filter(tournament_id=tournament).values_list("status", flat=True)) == {
        Entry.REGISTERED
    }
    assert TournamentEvent.objects.filter(tournament_id=tournament).count() == logged
    return client, tournament, refused.json()


def test_an_alalay_final_larger_than_the_field_says_its_numbers_at_the_start(make_user: Any) -> None:
    stages = [{"name": "alalay", "format": "alalay_event", "params": {"finalists": 6}}]
    client, tournament, body = _refused_start(make_user, "final", "alalay", stages, 4)
    assert (body["code"], body["field"]) == ("too-few-entries", "stage_plan[0].params.finalists")
    assert body["message"] == (
        "The final takes 6 finalists but only 4 entries are in play: add at least 2 more, "
        "or create the tournament again with 4 finalists or fewer."
    )
    spanish = client.post(
        f"/api/tournaments/{tournament}/start", {}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert spanish.json()["code"] == "too-few-entries"
    assert "6 finalistas" in spanish.json()["message"] and "4" in spanish.json()["message"]
    assert spanish.json()["message"] != body["message"]


def test_a_stage_that_would_send_everyone_on_says_its_numbers_at_the_start(make_user: Any) -> None:
    stages = [swiss("sw", overall=8), swiss("final")]
    client, tournament, body = _refused_start(make_user, "everyone", "dudo", stages, 8)
    assert (body["code"], body["field"]) == ("advancement-count", "stage_plan[0].params.advance")
    assert body["message"] == (
        "Stage “sw” sends 8 entries on, but only 8 are in play: a stage sends on some, not all, "
        "so add at least 1 more."
    )
    spanish = client.post(
        f"/api/tournaments/{tournament}/start", {}, format="json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert spanish.json()["code"] == "advancement-count" and "«sw»" in spanish.json()["message"]
    assert spanish.json()["message"] != body["message"]
    # One more entry and it runs.
    assert (
        client.post(f"/api/tournaments/{tournament}/entries", {"name": "P9"}, format="json").status_code
        == 201
    )
    assert client.post(f"/api/tournaments/{tournament}/start", {}, format="json").status_code == 200
