"""The production topology through nginx (deploy/topology.py): two uvicorn processes, a
Celery worker and beat, production settings, TLS at nginx. A club evening as its people
live it: two players sign up, one creates a club and a one-table tournament, both
register, the match is played over websockets (through nginx, each player's socket on
whichever process nginx picks) while a stranger watches, the worker records the result,
the standings are exported; then the scrape of /metrics sums both processes."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from cacho.live.bot import Bot
from deploy.topology import Topology, running
from tests.deploy.client import Browser
from tests.live.harness import services_env, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committed_db")]

PASSWORD = "leather-cup-1987"


@pytest.fixture
def topology(services: dict[str, str], nginx: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    import redis

    redis.Redis.from_url(services["REDIS_URL"]).flushdb()  # no timers left by earlier tests
    # The test database has its schema already (pytest-django made it).
    with running(services_env(tmp_path), tmp_path / "run", web=2, migrate=False) as running_topology:
        # Every TLS client of this test (urllib, websockets) trusts the run's certificate.
        monkeypatch.setenv("SSL_CERT_FILE", str(running_topology.certificate))
        yield running_topology


def sign_up(topology: Topology, username: str) -> Browser:
    browser = Browser(topology.url, topology.ssl_context())
    page = browser.get("/signup/")
    assert page.status == 200, page.body[:500]
    form = {
        "username": username,
        "email": f"{username}@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    done = browser.post_form("/signup/", form)
    assert done.status == 302, done.body[:2000]
    session = browser.cookie("sessionid")
    assert session is not None and session.secure, "production: the session cookie is HTTPS-only"
    return browser


def created(reply: Any, status: int = 201) -> dict[str, Any]:
    assert reply.status == status, reply.body[:2000]
    result: dict[str, Any] = reply.json()
    return result


async def spectate(url: str, origin: str, frames: list[dict[str, Any]]) -> None:
    """A stranger's socket until the match is over (the end shows in a state or an event)."""
    async with connect(url, origin=origin) as socket:  # type: ignore[arg-type]
        async for raw in socket:
            frame = json.loads(raw)
            frames.append(frame)
            if frame.get("t") == "state" and frame["d"]["status"] != "live":
                return
            if frame.get("t") == "state":
                continue
            if "v" in frame and frame.get("to_act", "") is None:
                await socket.send(json.dumps({"t": "state"}))  # nobody to act: over?


def test_a_club_evening_through_nginx(topology: Topology) -> None:
    ana, beto = sign_up(topology, "ana"), sign_up(topology, "beto")

    club = created(ana.post_json("/api/clubs", {"name": "Club del Cacho", "slug": "cacho-club"}))
    stages = [{"name": "final", "format": "swiss", "params": {"rounds": 1, "table_size": 2}}]
    tournament = created(
        ana.post_json(
            "/api/tournaments",
            {"club": club["id"], "name": "Viernes", "ruleset": "dudo", "turn_seconds": 30, "stages": stages},
        )
    )
    base = f"/api/tournaments/{tournament['id']}"
    created(ana.post_json(f"{base}/entries", {"name": "Ana", "username": "ana"}))  # the organiser plays too
    created(beto.post_json(f"{base}/entries", {"name": "Beto"}))
    created(ana.post_json(f"{base}/start", {}), status=200)
    (table,) = created(ana.get(f"{base}/rounds"), status=200)[0]["tables"]
    match_id = table["match_id"]

    url = f"{topology.ws_url}/ws/matches/{match_id}/"
    watched: list[dict[str, Any]] = []
    bots = [
        Bot(url, headers={"Cookie": browser.header()}, origin=topology.url, seed=seed)
        for seed, browser in enumerate((ana, beto))
    ]

    async def evening() -> list[Any]:
        watcher = asyncio.create_task(spectate(url, topology.url, watched))
        reports = await asyncio.gather(*(bot.play(timeout=40) for bot in bots))
        await asyncio.wait_for(watcher, 20)
        return list(reports)

    reports = asyncio.run(evening())
    assert all(report.finished for report in reports), [report.frames[-3:] for report in reports]
    assert all(not report.refused for report in reports), [report.refused for report in reports]
    final = reports[0].last_state
    assert final is not None and final["status"] == "finished"
    assert watched[0]["d"]["viewer"]["kind"] == "spectator"
    seen = [frame["v"] for frame in watched if "v" in frame and frame.get("t") not in ("state", "ack")]
    assert seen and max(seen) == final["version"], "the stranger saw the match to its last event"

    # Every socket of the match went to one process (nginx hashes a match's sockets by their
    # path), while the sockets of other matches spread over both.
    assert len(upstreams_of(topology, f"/ws/matches/{match_id}/")) == 1
    others = range(32)  # a two-server hash ring all but never puts 32 paths on one
    asyncio.run(knock([f"{topology.ws_url}/ws/matches/m{number}/" for number in others], topology.url))
    chosen = [upstreams_of(topology, f"/ws/matches/m{number}/") for number in others]
    assert all(len(one) == 1 for one in chosen), chosen
    assert len(set().union(*chosen)) == 2, chosen

    # The worker (through the broker) records the table; the tournament finishes.
    def tournament_state() -> dict[str, Any]:
        return created(ana.get(base), status=200)

    wait_for(lambda: tournament_state()["status"] == "finished", 30, lambda: topology.log("worker")[-3000:])

    export = ana.get(f"{base}/standings/csv")
    assert export.status == 200, export.body[:500]
    rows = list(csv.reader(io.StringIO(export.body.decode("utf-8-sig"))))
    assert rows[0][:2] == ["Place", "Entry"]
    assert sorted(row[1] for row in rows[1:]) == ["Ana", "Beto"]

    # nginx serves the static files itself: hashed names for a year, the others for an hour.
    manifest = json.loads((topology.run_dir / "static" / "staticfiles.json").read_text())["paths"]
    hashed = ana.get("/static/" + manifest["frontend/cacho.css"])
    assert hashed.status == 200 and hashed.headers["Server"].startswith("nginx")
    assert hashed.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    plain = ana.get("/static/frontend/cacho.css")
    assert plain.status == 200 and plain.headers["Cache-Control"] == "public, max-age=3600"
    assert b"--leather" in plain.body

    scrape = ana.get("/metrics")  # from loopback: allowed by the default allow-list
    assert scrape.status == 200, scrape.body[:300]
    text = scrape.body.decode()
    commands = sample(text, 'cacho_command_seconds_count{kind="player",outcome="ok"}')
    sent = sum(report.commands_sent for report in reports)
    assert commands >= sent > 0
    assert sample(text, "cacho_events_appended_total") > sent
    assert sample(text, "cacho_open_disputes") == 0
    assert sample(text, 'cacho_celery_queue_depth{queue="celery"}') >= 0
    # Production logs are JSON lines, and a task's lines name the match it worked for.
    lines = [json.loads(line) for line in topology.log("worker").splitlines() if line.startswith("{")]
    assert any(line.get("match") == match_id for line in lines), lines[-10:]


async def knock(urls: list[str], origin: str) -> None:
    """A socket opened to each address twice, whatever the server answers."""
    for url in urls * 2:
        try:
            async with connect(url, origin=origin, open_timeout=10) as socket:  # type: ignore[arg-type]
                await socket.close()
        except (WebSocketException, OSError):  # a refused handshake is an answer too
            pass


def upstreams_of(topology: Topology, path: str) -> set[str]:
    """The processes nginx gave the requests for `path` (its access log's `upstream=`)."""
    log = (topology.run_dir / "nginx-access.log").read_text()
    pattern = rf'"GET {re.escape(path)}(?:\?\S*)? HTTP/1\.1" .* upstream=(\S+)$'
    return {found.group(1) for found in re.finditer(pattern, log, re.MULTILINE)}


def sample(text: str, name: str) -> float:
    """A sample's value in an exposition (the sum over processes, multiprocess mode)."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in\n{text[:3000]}"
    return float(found.group(1))
