"""`GET /healthz`: does every configured backing service answer?

200 ``{"status": "ok", ...}`` when the database, the channel layer and (when
configured) the Celery broker answer; 503 ``{"status": "fail", ...}`` naming the
failing part otherwise. Each check has a short timeout and catches everything:
this endpoint never answers 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
import weakref
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

TIMEOUT_SECONDS = 2.0

Check = dict[str, Any]


def _error(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:300]


def _elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def check_database(alias: str = "default") -> Check:
    """``SELECT 1`` on the database."""
    connection = connections[alias]
    result: Check = {"ok": False, "backend": connection.vendor}
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            (one,) = cursor.fetchone()
        result["ok"] = one == 1
    except Exception as exc:
        result["error"] = _error(exc)
        # Do not keep a broken connection around for the next request.
        with contextlib.suppress(Exception):
            connection.close()
    result["ms"] = _elapsed_ms(started)
    return result


def _layer_backend_name(config: dict[str, Any]) -> str:
    backend = str(config.get("BACKEND", ""))
    if "InMemory" in backend:
        return "in-memory"
    if "redis" in backend.lower():
        return "redis"
    return backend


# The pub/sub layer's first subscription on a fresh instance waits out its receive task's
# 0.1 s idle poll: that layer is probed through one instance per event loop, kept, on one
# channel of its own (a publish to a Redis that is down still fails at once).
_PUBSUB_PROBES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[Any, str]] = (
    weakref.WeakKeyDictionary()
)


async def _pubsub_probe(alias: str) -> tuple[Any, str]:
    from channels.layers import channel_layers

    loop = asyncio.get_running_loop()
    probe = _PUBSUB_PROBES.get(loop)
    if probe is None:
        layer = channel_layers.make_backend(alias)
        probe = _PUBSUB_PROBES[loop] = (layer, await layer.new_channel("healthz."))
    return probe


async def check_channel_layer(alias: str = "default") -> Check:
    """Send a message to a channel and receive it back (a fresh layer instance; with the
    pub/sub layer, this event loop's probe)."""
    from channels.layers import channel_layers

    config = channel_layers.configs.get(alias)
    if not config:
        return {"ok": False, "configured": False, "error": "CHANNEL_LAYERS has no default layer"}
    result: Check = {"ok": False, "backend": _layer_backend_name(config)}
    started = time.perf_counter()
    layer = None
    pubsub = str(config.get("BACKEND", "")).endswith("RedisPubSubChannelLayer")
    try:
        nonce = uuid.uuid4().hex

        async def round_trip() -> bool:
            nonlocal layer
            if pubsub:
                probe, channel = await _pubsub_probe(alias)
            else:
                layer = probe = channel_layers.make_backend(alias)
                channel = await probe.new_channel("healthz.")
            await probe.send(channel, {"type": "healthz.ping", "nonce": nonce})
            while True:  # a probe kept may still hold the answer to a check that timed out
                message = await probe.receive(channel)
                if not pubsub or message.get("nonce") == nonce:
                    return bool(message.get("nonce") == nonce)

        result["ok"] = await asyncio.wait_for(round_trip(), timeout=TIMEOUT_SECONDS)
        if not result["ok"]:
            result["error"] = "received a different message"
    except TimeoutError:
        result["error"] = f"no round trip within {TIMEOUT_SECONDS:g} s"
    except Exception as exc:
        result["error"] = _error(exc)
    finally:
        close = getattr(layer, "close_pools", None)
        if close is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(close(), timeout=TIMEOUT_SECONDS)
    result["ms"] = _elapsed_ms(started)
    return result


def check_broker() -> Check:
    """Connect to the Celery broker; embedded mode has none, which is fine."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) or str(
        getattr(settings, "CELERY_BROKER_URL", "")
    ).startswith("memory://"):
        return {"ok": True, "configured": False, "timers": settings.CACHO_TIMERS}
    from kombu import Connection

    url = settings.CELERY_BROKER_URL
    result: Check = {"ok": False, "configured": True, "backend": url.split(":", 1)[0]}
    started = time.perf_counter()
    try:
        with Connection(
            url,
            connect_timeout=TIMEOUT_SECONDS,
            transport_options={"socket_timeout": TIMEOUT_SECONDS},
        ) as connection:
            connection.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=TIMEOUT_SECONDS
            )
        result["ok"] = True
    except Exception as exc:
        result["error"] = _error(exc)
    result["ms"] = _elapsed_ms(started)
    return result


async def run_checks() -> dict[str, Check]:
    database, channel_layer, broker = await asyncio.gather(
        sync_to_async(check_database, thread_sensitive=True)(),
        check_channel_layer(),
        sync_to_async(check_broker, thread_sensitive=False)(),
        return_exceptions=True,
    )
    checks: dict[str, Check] = {}
    for name, outcome in (("database", database), ("channel_layer", channel_layer), ("broker", broker)):
        if isinstance(outcome, BaseException):
            checks[name] = {"ok": False, "error": _error(outcome)}
        else:
            checks[name] = outcome
    return checks


def _answer(checks: dict[str, Check]) -> JsonResponse:
    """200 when every check is ok, 503 naming the failing ones otherwise."""
    failing = sorted(name for name, check in checks.items() if not check.get("ok"))
    body: dict[str, Any] = {
        "status": "fail" if failing else "ok",
        "mode": settings.CACHO_MODE,
        "checks": checks,
    }
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    try:
        checks = await run_checks()
    except Exception as exc:  # belt and braces: never a 500
        checks = {"healthz": {"ok": False, "error": _error(exc)}}
    return _answer(checks)


# ------------------------------------------------------------------ readiness (deploy)
# `/healthz` answers whether this process and what it needs answer (the liveness probe:
# a process that cannot reach them for long is restarted); `/readyz` whether it should
# be sent traffic now: the same checks, and the database schema at this code's
# migrations (a new release's pods wait for its migration job). Once the schema is
# found current it stays so for the process (migrations only move forward).
_SCHEMA_CURRENT = False


def check_migrations(alias: str = "default") -> Check:
    global _SCHEMA_CURRENT
    if _SCHEMA_CURRENT:
        return {"ok": True}
    from django.db.migrations.executor import MigrationExecutor

    started = time.perf_counter()
    result: Check = {"ok": False}
    try:
        executor = MigrationExecutor(connections[alias])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        result["ok"] = not plan
        if plan:
            result["error"] = f"{len(plan)} migration(s) not applied, e.g. {plan[0][0]}"
        _SCHEMA_CURRENT = not plan
    except Exception as exc:
        result["error"] = _error(exc)
    result["ms"] = _elapsed_ms(started)
    return result


@never_cache
@require_GET
async def readyz(request: HttpRequest) -> JsonResponse:
    try:
        checks = await run_checks()
        if checks["database"].get("ok"):
            checks["migrations"] = await sync_to_async(check_migrations, thread_sensitive=True)()
        else:
            checks["migrations"] = {"ok": False, "error": "the database does not answer"}
    except Exception as exc:  # never a 500
        checks = {"readyz": {"ok": False, "error": _error(exc)}}
    return _answer(checks)
