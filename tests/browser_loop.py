"""One Chromium per test process (per pytest-xdist worker), and the event loop it brings.

Playwright's sync API runs its event loop in a greenlet of the test thread: while
Playwright lives, that loop is the thread's running loop. A test that does not use the
browser runs with it set aside (no running loop, as without a browser: pytest-asyncio and
`asyncio.run` start loops of their own, Django's async-safety guard sees plain synchronous
code); a test that uses it runs with the loop in place and Django's guard off, its ORM
calls being plain synchronous set-up code (tests/conftest.py, `pytest_runtest_protocol`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator


@contextlib.contextmanager
def for_test(*, uses_browser: bool) -> Iterator[None]:
    if uses_browser:
        with async_unsafe_allowed():
            yield
        return
    loop = asyncio._get_running_loop()
    if loop is None:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        # (not when the browser was closed meanwhile: the session's end, in this test's teardown)
        if not loop.is_closed() and asyncio._get_running_loop() is None:
            asyncio._set_running_loop(loop)


@contextlib.contextmanager
def in_place(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Playwright's loop as the running one while the browser closes, whichever test's
    teardown closes it."""
    previous = asyncio._get_running_loop()
    asyncio._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio._set_running_loop(previous)


@contextlib.contextmanager
def async_unsafe_allowed() -> Iterator[None]:
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous
