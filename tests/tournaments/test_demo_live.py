"""`make run` offers a demo club whose bots play live in the serving process (embedded)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.test_foundation.helpers import clean_env, http_get, manage, serve
from tests.test_foundation.installs import migrate_install

pytestmark = [pytest.mark.slow]


def _versions(url: str, match_ids: list[str]) -> list[int]:
    return [http_get(f"{url}/api/matches/{match_id}").json()["version"] for match_id in match_ids]


def test_the_demo_bots_play_live(tmp_path: Path) -> None:
    env = clean_env(tmp_path, ALLOWED_HOSTS="127.0.0.1,localhost")
    migrate_install(env)
    seeded = manage(env, "seed_demo")
    assert seeded.returncode == 0, seeded.stderr
    with serve({**env, "CACHO_DEMO_BOTS": "1"}, tmp_path) as server:
        tournaments = http_get(f"{server.url}/api/tournaments").json()
        assert {t["game"] for t in tournaments} == {"dudo", "alalay"}
        match_ids = [
            table["match_id"]
            for tournament in tournaments
            for round_ in http_get(f"{server.url}/api/tournaments/{tournament['id']}/rounds").json()
            for table in round_["tables"]
        ]
        assert match_ids
        before = _versions(server.url, match_ids)
        deadline = time.monotonic() + 20  # the bots play a move every few seconds
        after = before
        while sum(after) <= sum(before) and time.monotonic() < deadline:
            time.sleep(0.05)  # a poll of the server, not a wait for the clock
            after = _versions(server.url, match_ids)
    assert sum(after) > sum(before), (before, after)
