"""The chaos bench's scorekeeper: a client that enters a physical table's rounds by their
outcome over the HTTP API, through whichever web process answers, then has each player
confirm the sheet from their own session (docs/physical.md)."""

from __future__ import annotations

import json
import random
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

CSRF = secrets.token_hex(16)  # any 32 characters: the cookie and the header agree


class Answer(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body.get('code')}")
        self.status, self.body = status, body


def call(
    base: str, cookie: str, method: str, path: str, body: dict[str, Any] | None = None
) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={
            "Cookie": f"{cookie}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "Content-Type": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return dict(json.loads(response.read()))
    except urllib.error.HTTPError as exc:
        raise Answer(exc.code, json.loads(exc.read() or b"{}")) from exc


def keep_score(
    bases: list[str],
    table_id: int,
    match_id: str,
    keeper: str,
    players: dict[int, str],
    seed: int,
    think: float,
    acked: set[tuple[str, int]],
    until: float,
) -> dict[str, int]:
    """Enters the table until its match is over and every player has confirmed; each entry
    answered 201 goes into `acked` (match, version). Returns what went wrong on the way, by
    cause (a web process away, a sheet moved on): each is retried."""
    rng = random.Random(seed)
    trouble: dict[str, int] = {}
    attempt = seed
    while time.monotonic() < until:
        base = bases[attempt % len(bases)]
        try:
            sheet = call(base, keeper, "GET", f"/api/tables/{table_id}/sheet")
            if sheet["closed"]:
                return trouble
            if not sheet["over"]:
                time.sleep(think)
                choice = rng.choice([o for o in sheet["options"]["outcomes"] if o["call"] == "dudo"])
                entry = {key: choice[key] for key in ("by", "loser", "direction") if key in choice}
                entry.update(type="outcome", call="dudo", expected_version=sheet["version"])
                entry["command_id"] = secrets.token_hex(8)
                done = call(base, keeper, "POST", f"/api/tables/{table_id}/entries", entry)
                acked.add((match_id, int(done["version"])))
                continue
            for entry_id, cookie in players.items():
                try:
                    call(base, cookie, "POST", f"/api/tables/{table_id}/confirm", {"entry": entry_id})
                except Answer as exc:  # one who left the table confirms nothing
                    cause = f"confirm {exc.body.get('code')}: {exc.body.get('message')}"
                    trouble[cause] = trouble.get(cause, 0) + 1
        except Answer as exc:
            trouble[str(exc.body.get("code"))] = trouble.get(str(exc.body.get("code")), 0) + 1
            attempt += 1
            time.sleep(0.2)
        except (OSError, ValueError) as exc:  # the web process went (a fault): the other one
            trouble[type(exc).__name__] = trouble.get(type(exc).__name__, 0) + 1
            attempt += 1
            time.sleep(0.2)
    return trouble
