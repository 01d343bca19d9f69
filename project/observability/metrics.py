"""`GET /metrics`: the Prometheus exposition of the platform (prometheus-client).

Two kinds of figure:

* counted as things happen (cacho.observability.metrics): commands by kind and outcome with their
  latency, events appended, timer lateness, open sockets. With `PROMETHEUS_MULTIPROC_DIR`
  set every process of the host (uvicorn workers, Celery workers) writes its own files
  there, and this endpoint sums them (prometheus-client's multiprocess mode);
* read at scrape time (`Readings`): open disputes, the standings lag (tables whose
  match has ended but whose result is not in the standings yet, and how long the oldest
  has waited), the Celery queue's depth and the timers workers hold unacknowledged.

Open to a request with `Authorization: Bearer <CACHO_METRICS_TOKEN>`, or from an address in
`CACHO_METRICS_ALLOW` (loopback by default); anyone else gets 403 `metrics-forbidden`.
A Celery worker's own figures, where it runs apart from any web process (a container of
its own), are served by `serve_worker_metrics` on `CACHO_METRICS_PORT`.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from tournaments import matches
from tournaments.models import Dispute, Table, Tournament

logger = logging.getLogger(__name__)

LIVE_GAUGE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")
CELERY_QUEUES = ("celery",)


def allowed(request: HttpRequest) -> bool:
    token = settings.CACHO_METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(header.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(network) for network in settings.CACHO_METRICS_ALLOW)


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        return JsonResponse(
            {"code": "metrics-forbidden", "message": "A metrics token or an allowed address is needed."},
            status=403,
        )
    return HttpResponse(generate_latest(registry(readings=True)), content_type=CONTENT_TYPE_LATEST)


def registry(*, readings: bool) -> CollectorRegistry:
    """A registry for one scrape: every process's figures (multiprocess) or this one's, and
    the readings from the database and the broker."""
    scrape = CollectorRegistry(auto_describe=False)
    directory = settings.CACHO_METRICS_DIR
    if directory is not None:
        forget_dead_processes(Path(directory))
        multiprocess.MultiProcessCollector(scrape, path=str(directory))
    else:
        scrape.register(_ThisProcess())
    if readings:
        scrape.register(Readings())
    return scrape


def forget_dead_processes(directory: Path) -> None:
    """A live gauge (open sockets) counts only processes that still run: the files of one
    that died without closing its sockets are dropped (counters and histograms stay)."""
    for path in directory.glob("gauge_live*.db"):
        found = LIVE_GAUGE_FILE.match(path.name)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, str(directory))
        except PermissionError:
            pass  # alive, someone else's


class _ThisProcess:
    """The default registry's figures (one process: embedded mode, tests)."""

    def collect(self) -> Iterator[Any]:
        yield from REGISTRY.collect()


class Readings:
    """Figures read at scrape time; a part that cannot be read is reported as such
    (`cacho_metrics_reading_ok{part}` 0) and the others are still served."""

    def collect(self) -> Iterator[Any]:
        ok = GaugeMetricFamily(
            "cacho_metrics_reading_ok", "1 when the scrape could read the part, 0 otherwise.", labels=["part"]
        )
        for part, read in (("database", self._database), ("broker", self._broker)):
            try:
                yield from read()
                ok.add_metric([part], 1)
            except Exception:
                logger.warning("metrics: cannot read the %s", part, exc_info=True)
                ok.add_metric([part], 0)
        yield ok

    def _database(self) -> Iterator[Any]:
        yield GaugeMetricFamily(
            "cacho_open_disputes",
            "Disputes filed and not yet ruled or withdrawn.",
            value=Dispute.objects.filter(status=Dispute.OPEN).count(),
        )
        playing = Table.objects.filter(
            status=Table.PLAYING, match_id__isnull=False, round__tournament__status=Tournament.RUNNING
        ).values_list("match_id", flat=True)
        ended = [moment for moment in matches.finish_times(list(playing)) if moment is not None]
        yield GaugeMetricFamily(
            "cacho_standings_lag_matches",
            "Tournament matches that have ended whose result is not in the standings yet.",
            value=len(ended),
        )
        oldest = (timezone.now() - min(ended)).total_seconds() if ended else 0.0
        yield GaugeMetricFamily(
            "cacho_standings_lag_seconds",
            "How long the oldest ended match has waited for its result to reach the standings.",
            value=max(0.0, oldest),
        )

    def _broker(self) -> Iterator[Any]:
        url = str(getattr(settings, "CELERY_BROKER_URL", ""))
        if not url.startswith(("redis://", "rediss://", "unix://")):
            return
        import redis

        client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        try:
            depth = GaugeMetricFamily(
                "cacho_celery_queue_depth", "Celery tasks waiting in the broker's queue.", labels=["queue"]
            )
            for queue in CELERY_QUEUES:
                depth.add_metric([queue], int(client.llen(queue)))  # type: ignore[arg-type]
            yield depth
            yield GaugeMetricFamily(
                "cacho_celery_unacked",
                "Tasks a worker holds unacknowledged (turn timers waiting for their ETA).",
                value=int(client.hlen("unacked")),  # type: ignore[arg-type]
            )
        finally:
            client.close()


def serve_worker_metrics(port: int) -> None:
    """A Celery worker's figures over HTTP on `port` (its pod or container has no web
    process to sum them): the counted figures only, the readings stay with the web."""
    from prometheus_client import start_http_server

    start_http_server(port, registry=registry(readings=False))
