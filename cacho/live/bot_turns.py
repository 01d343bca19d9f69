"""The bots' moves without Celery (embedded mode): a heap of (due, match, version) served
by one daemon thread of the serving process, as the turn timers are (`cacho.live.timers`).
Each run calls `services.bot_play.play_bot_turn`, which acts only if the match is still at
that version."""

from __future__ import annotations

import heapq
import logging
import threading
from typing import Any

from django.db import close_old_connections

from cacho.process.clock import now_ms
from cacho.services.bot_play import play_bot_turn

logger = logging.getLogger(__name__)

IDLE_SECONDS = 5.0


class InProcessBots:
    def __init__(self) -> None:
        self._heap: list[tuple[int, str, int]] = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def schedule(self, match_id: Any, version: int, delay_ms: int) -> None:
        with self._wake:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cacho-bots", daemon=True)
                self._thread.start()
            heapq.heappush(self._heap, (now_ms() + delay_ms, str(match_id), version))
            self._wake.notify()

    def _next_wait(self) -> float:
        if not self._heap:
            return IDLE_SECONDS
        return max(0.0, (self._heap[0][0] - now_ms()) / 1000)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait(timeout=self._next_wait())
                due: list[tuple[int, str, int]] = []
                while self._heap and self._heap[0][0] <= now_ms():
                    due.append(heapq.heappop(self._heap))
            for _due, match_id, version in due:
                try:
                    play_bot_turn(match_id, version)
                except Exception:  # the thread must survive anything a match throws at it
                    logger.exception("bot move of match %s", match_id)
                finally:
                    close_old_connections()


BOTS = InProcessBots()
