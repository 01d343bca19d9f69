"""The demo club's bots, playing live at a human pace in a daemon thread of the serving
process (`CACHO_DEMO_BOTS=1`, set by `make run`). Every move goes through the match write
path, so spectators watch it on the sockets like any other."""

from __future__ import annotations

import logging
import random
import threading
import time

from django.db import close_old_connections

from tournaments.models import Club, Tournament
from tournaments.services.bots import play_bots_once

logger = logging.getLogger(__name__)

DEMO_SLUG = "demo"
PAUSE_SECONDS = 1.5


def play_demo_round_of_moves(rng: random.Random) -> int:
    """One move at every table where a demo bot is on turn (results flow from the matches
    that end, as for any table)."""
    moved = 0
    club = Club.objects.filter(slug=DEMO_SLUG).first()
    if club is None:
        return 0
    for tournament in club.tournaments.exclude(status=Tournament.FINISHED):
        moved += play_bots_once(tournament, rng)
    return moved


def _run(pause: float) -> None:
    rng = random.Random()
    while True:
        try:
            play_demo_round_of_moves(rng)
        except Exception:  # the demo must outlive any single failed move
            logger.exception("demo bots")
        finally:
            close_old_connections()
        time.sleep(pause)


def start_demo_bots(pause: float = PAUSE_SECONDS) -> threading.Thread:
    thread = threading.Thread(target=_run, args=(pause,), name="cacho-demo-bots", daemon=True)
    thread.start()
    return thread
