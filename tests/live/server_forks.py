"""A parent of uvicorn servers: the project loaded once, a server forked from it per test.

Each uvicorn a test starts (`tests.live.harness.asgi_server`) would import Django and the
project, then load its URLs, templates and translations on its first requests: about a
second of CPU, paid by about a hundred tests of each run. This process pays it once per
pytest-xdist worker, with the environment every such test gives its server (the worker's
test database and Redis), and forks a fresh server for each test: each test still has a
process of its own that no other test wrote to, killed at its end.

Nothing loaded here opens a connection or starts a thread (PostgreSQL mode: Celery
timers, no demo bots), so a fork starts clean. Protocol, one JSON line each way on
stdin/stdout: `{"port": P, "log": "/path"}` → `{"pid": N}`.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import sys
from typing import Any


def _load() -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
    from django.conf import settings
    from django.template import engines
    from django.template.loaders.app_directories import get_app_template_dirs
    from django.urls import get_resolver
    from django.utils import translation

    from project.asgi import application

    # What each server's first requests would load: every view (through the URLs), every
    # template (the cached loader keeps them compiled) and the catalogue of each language.
    get_resolver().url_patterns  # noqa: B018
    for directory in [*settings.TEMPLATES[0]["DIRS"], *get_app_template_dirs("templates")]:
        for path, _, files in os.walk(directory):
            for name in files:
                if name.endswith((".html", ".txt", ".xml")):
                    relative = os.path.relpath(os.path.join(path, name), directory)
                    # A library's template may need what this project lacks: its server
                    # would fail on it alike.
                    with contextlib.suppress(Exception):
                        engines["django"].get_template(relative)
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Lobby")
    gc.freeze()
    return application


def _serve(application: Any, port: int, log: str) -> None:
    """In the forked child: output to the test's log, then uvicorn as `python -m uvicorn
    project.asgi:application --host 127.0.0.1 --port P --lifespan off` runs it."""
    import uvicorn

    sink = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    os.close(sink)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    sys.stderr = os.fdopen(2, "w", buffering=1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    uvicorn.run(application, host="127.0.0.1", port=port, lifespan="off")


def _reap(*_: Any) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main() -> None:
    application = _load()
    answers = sys.stdout
    signal.signal(signal.SIGCHLD, _reap)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                _serve(application, request["port"], request["log"])
            finally:
                os._exit(0)
        answers.write(json.dumps({"pid": pid}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
