"""A Celery worker outlives a Redis that restarts empty (kombu's `restore_unacked` finds no
delivery info there and raised, which stopped the worker: no turn timer ran until someone
restarted it) and runs the turn timers set after it."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from celery import Celery

from tests.live.harness import celery_worker, wait_for
from tests.live.own_redis import own_redis

pytestmark = [pytest.mark.slow]


def ping(broker_url: str) -> bool:
    """The worker answers a broadcast over the broker (a client of its own each time: one
    whose connection died with the old Redis would keep failing)."""
    client = Celery("ping", broker=broker_url, set_as_current=False)
    try:
        return bool(client.control.ping(timeout=1.0))
    except Exception:  # Redis still on its way back
        return False
    finally:
        client.close()


def test_the_worker_outlives_a_redis_restart(env: dict[str, str], tmp_path: Path) -> None:
    with own_redis(tmp_path) as redis_server:
        worker_env = {**env, "REDIS_URL": redis_server.url()}
        with celery_worker(worker_env, tmp_path) as worker:
            # Not the current app: the tasks of later tests in this process keep the suite's broker.
            broker = Celery("timers", broker=redis_server.url(), set_as_current=False)
            for restart in range(3):  # again and again: each reconnection must survive the next restart
                # A turn timer held by the worker (an ETA task: delivered, not yet acknowledged),
                # as every match in play has one.
                broker.send_task("cacho.expire_turn", args=[str(uuid.uuid4()), 1], countdown=600)
                wait_for(
                    lambda restart=restart: worker.output().count("cacho.expire_turn") > restart,
                    15,
                    lambda: worker.output()[-3000:],
                )
                redis_server.restart()
                wait_for(
                    lambda: worker.process.poll() is not None or ping(redis_server.url()),
                    40,
                    lambda: worker.output()[-3000:],
                )
                assert worker.process.poll() is None, worker.output()[-3000:]
            assert worker.process.poll() is None
            assert "Unrecoverable error" not in worker.output()
