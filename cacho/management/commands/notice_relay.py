"""`manage.py notice_relay`: this host's notice relay (cacho.services.relay), until SIGTERM."""

from __future__ import annotations

import signal
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from cacho.services.relay import WINDOW, NoticeRelay, RelayBusy


class Command(BaseCommand):
    help = (
        "Relay the notices of this host's server processes to Redis in batches, on the Unix "
        "socket CACHO_NOTICE_RELAY names (or --path)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--path", default="", help="the socket (default: CACHO_NOTICE_RELAY)")
        parser.add_argument(
            "--window-ms", type=float, default=WINDOW * 1000, help="how long a batch gathers (ms)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"] or settings.CACHO_NOTICE_RELAY
        if not path:
            raise CommandError("no socket to serve: set CACHO_NOTICE_RELAY or pass --path")
        from channels_redis.core import RedisChannelLayer

        layer = get_channel_layer()
        if not isinstance(layer, RedisChannelLayer) or layer.ring_size != 1:
            raise CommandError(
                f"the relay writes to one Redis server of a channels-redis layer; this one is {layer!r}"
            )
        relay = NoticeRelay(path, layer, options["window_ms"] / 1000)
        try:
            relay.bind()
        except (RelayBusy, OSError) as exc:
            raise CommandError(str(exc)) from exc
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *_: relay.stop())
        self.stdout.write(f"notice relay on {path}, batches of {options['window_ms']:g} ms", ending="\n")
        self.stdout.flush()
        relay.serve()
        self.stdout.write(f"notice relay stopped: {relay.relayed} relayed, {relay.dropped} dropped")
