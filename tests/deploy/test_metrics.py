"""`/metrics` scraped as Prometheus would: a uvicorn process and a Celery worker sharing
prometheus-client's multiprocess folder. After a played move, a refused one and a turn the
worker's timer played, the counts and the timer's lateness are there, summed over both
processes; the open-sockets gauge follows a spectator's socket; the endpoint opens only
to its token (the allow-list here names no local address). The worker also serves its own
figures on CACHO_METRICS_PORT and says it is ready in CACHO_WORKER_READY_FILE."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from cacho.models import Match
from cacho.services import matches
from tests.live.harness import asgi_server, celery_worker, open_socket, services_env, session_cookie, wait_for
from tests.test_foundation.helpers import Response, Server, free_port, http_get

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committed_db")]

TOKEN = "scrape-me-" + "x" * 20


def scrape(server: Server, token: str | None = TOKEN) -> Response:
    request = urllib.request.Request(server.url + "/metrics")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Response(
                response.status, response.read(), {k.lower(): v for k, v in response.headers.items()}
            )
    except urllib.error.HTTPError as error:
        return Response(error.code, error.read(), dict(error.headers))


def value(text: str, sample: str) -> float:
    """`name` or `name{label="value",...}` in an exposition (labels in any order); 0 when absent."""
    from prometheus_client.parser import text_string_to_metric_families

    name, _, labels = sample.partition("{")
    wanted = dict(re.findall(r'(\w+)="([^"]*)"', labels))
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == wanted:
                return float(found.value)
    return 0.0


def figures(server: Server) -> str:
    reply = scrape(server)
    assert reply.status == 200, reply.body[:300]
    assert reply.headers["content-type"].startswith("text/plain; version=")
    return reply.body.decode()


def seated_match(turn_seconds: int) -> Match:
    from django.contrib.auth import get_user_model

    match = matches.create_match("dudo", ["ana", "beto"], turn_seconds=turn_seconds, first_seat=0)
    for index, name in enumerate(("ana", "beto")):
        session_cookie(name)
        matches.take_seat(match.pk, index, get_user_model().objects.get(username=name))
    return match


def test_metrics_count_commands_timers_and_sockets_over_processes(services: Any, tmp_path: Path) -> None:
    import redis

    redis.Redis.from_url(services["REDIS_URL"]).flushdb()
    env = services_env(
        tmp_path,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
        CACHO_METRICS_TOKEN=TOKEN,
        CACHO_METRICS_ALLOW="192.0.2.1/32",  # not this host: only the token opens
    )
    worker_port, ready = free_port(), tmp_path / "worker.ready"
    worker_env = {**env, "CACHO_METRICS_PORT": str(worker_port), "CACHO_WORKER_READY_FILE": str(ready)}
    with asgi_server(env, tmp_path) as server, celery_worker(worker_env, tmp_path, graceful=True):
        wait_for(ready.exists, 10)
        for token in (None, "wrong"):
            refused = scrape(server, token)
            assert refused.status == 403 and refused.json()["code"] == "metrics-forbidden"
        wait_for(lambda: http_get(server.url + "/readyz").status == 200, 15)  # a busy machine: a moment
        assert http_get(server.url + "/readyz").json()["checks"]["migrations"] == {"ok": True}

        timed = seated_match(turn_seconds=1)  # nobody plays it: the worker's timer does
        played = seated_match(turn_seconds=30)
        url = server.url.replace("http://", "ws://") + f"/ws/matches/{played.pk}/"
        cookie = session_cookie("ana")

        async def play() -> None:
            ana = await open_socket(url, cookie)
            watcher = await open_socket(url)
            await ana.next(lambda frame: frame["t"] == "state")
            await watcher.next(lambda frame: frame["t"] == "state")
            text = figures(server)
            assert value(text, 'cacho_open_sockets{role="spectator"}') == 1
            assert value(text, 'cacho_open_sockets{role="player"}') == 1
            await ana.send({"t": "command", "id": "m1", "d": {"type": "bid", "quantity": 1, "face": 3}})
            assert (await ana.next(lambda frame: frame["t"] == "ack"))["ok"]
            await ana.send({"t": "command", "id": "m2", "d": {"type": "bid", "quantity": 1, "face": 3}})
            assert not (await ana.next(lambda frame: frame["t"] == "ack"))["ok"]  # not ana's turn
            await watcher.close()
            await ana.close()

        asyncio.run(play())
        wait_for(lambda: Match.objects.get(pk=timed.pk).version > 2, 15)

        def settled() -> bool:
            text = figures(server)
            return (
                value(text, 'cacho_command_seconds_count{kind="timeout",outcome="ok"}') >= 1
                and value(text, 'cacho_open_sockets{role="spectator"}') == 0
            )

        wait_for(settled, 10)
        text = figures(server)
        # The worker's own exporter (a pod without a web process): the counted figures.
        with urllib.request.urlopen(f"http://127.0.0.1:{worker_port}/metrics", timeout=10) as response:
            own = response.read().decode()
    assert value(own, 'cacho_command_seconds_count{kind="timeout",outcome="ok"}') >= 1
    assert "cacho_open_disputes" not in own, "the readings stay with the web processes"
    assert not ready.exists(), "a worker that has stopped is not ready"
    assert value(text, 'cacho_command_seconds_count{kind="player",outcome="ok"}') == 1
    assert value(text, 'cacho_command_seconds_count{kind="player",outcome="refused"}') == 1
    assert value(text, 'cacho_command_seconds_bucket{kind="player",le="+Inf",outcome="ok"}') == 1
    assert value(text, "cacho_timer_lateness_seconds_count") >= 1
    late = value(text, "cacho_timer_lateness_seconds_sum") / value(text, "cacho_timer_lateness_seconds_count")
    assert 0 <= late < 5, "a timer fires within seconds of its deadline"
    assert value(text, "cacho_events_appended_total") >= 2  # the move's and the timeout's
    assert value(text, 'cacho_open_sockets{role="player"}') == 0
    assert value(text, "cacho_open_disputes") == 0
    assert value(text, "cacho_standings_lag_matches") == 0
    assert value(text, 'cacho_metrics_reading_ok{part="broker"}') == 1
    assert 'cacho_celery_queue_depth{queue="celery"}' in text
