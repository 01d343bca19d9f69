"""ASGI entry point: ``uvicorn project.asgi:application``.

HTTP goes to Django; websockets go through the origin check (scheme, host and port:
`project.edge.origins`) and the session/auth middleware (`project.edge.socket_sessions`) to
the routes in `project.routing` (the match server's and the disputes').
"""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from cacho.services.startup import load_write_path  # noqa: E402
from project.edge.origins import SameOriginValidator  # noqa: E402
from project.edge.socket_sessions import socket_auth_stack  # noqa: E402
from project.routing import websocket_urlpatterns  # noqa: E402

# The first move's notice would otherwise import the channel layer's backend.
load_write_path()

if settings.CACHO_TIMERS == "in-process":
    # Embedded mode has no Celery: this process keeps the turn deadlines, and sweeps at
    # start-up the ones that passed while it was down.
    from cacho.live.timers import TIMERS
    from tournaments.services.results import start_sweeper

    TIMERS.start()
    # … and the tournaments' safety net that Celery beat runs elsewhere.
    start_sweeper()

if settings.CACHO_DEMO_BOTS:
    # The demo club's bots play in this process, so that their moves reach the sockets
    # through this process's channel layer (the in-memory one, embedded).
    from tournaments.services.demo import start_demo_bots

    start_demo_bots()

# Everything loaded so far lives as long as the process: out of the collector's sight, a
# full collection no longer walks it while sockets wait (a pause in every live frame).
gc.freeze()
# A live move allocates thousands of short-lived containers, nearly all freed by their
# reference counts: at the default first threshold (700) the collector ran about 14 times a
# second in a process serving 50 moves a second, for about 3 % of its CPU; at 10,000 it
# runs about once a second, for half of that (docs/benchmarks.md, "The collector's threshold").
gc.set_threshold(10_000, 10, 10)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(socket_auth_stack(URLRouter(websocket_urlpatterns))),
    }
)
