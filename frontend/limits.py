"""Login and signup throttling (cacho.edge.limits, `CACHO_RATES`).

- Failed logins count per address and user name together (`login-failed`): past the
  limit that name is refused at that address until the window ends, whatever the
  password. One member's mistakes at a club's shared address lock nobody else there.
- They also count per user name from anywhere, in short windows (`login-failed-name`):
  past it the name waits for the window's end (a minute at most), so that guessing a
  password from many addresses is slow while whoever knows a name can only delay its
  owner briefly, and not at all at an address where that name logged in before
  (`login-known`, counted by each good login).
- An address that fails with many names (`login-failed-address`) is refused whole.
A login that succeeds counts no failure.
- Accounts made count per address (`signup`).
A refusal is the 429 page (a `Retry-After` header with it), never the form.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from cacho.edge import limits
from frontend.labels.site import labels

View = Callable[..., HttpResponse]


def _address(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def too_many(request: HttpRequest, seconds: float) -> HttpResponse:
    minutes = max(1, math.ceil(seconds / 60))
    response = render(request, "429.html", {"labels": labels(), "minutes": minutes}, status=429)
    response["Retry-After"] = str(max(1, math.ceil(seconds)))
    return response


def login_limited(view: View) -> View:
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        address = _address(request)
        name = str(request.POST.get("username", ""))[:150].strip().lower()
        pair = f"{address}|{name}"
        checks = [("login-failed", pair), ("login-failed-address", address)]
        if limits.peek("login-known", pair) is None:  # no good login here yet: the name's pace
            checks.append(("login-failed-name", name))
        for scope, ident in checks:
            if (wait := limits.peek(scope, ident)) is not None:
                return too_many(request, wait)
        response = view(request, *args, **kwargs)
        if response.status_code == 200:  # the form again: the login failed
            for scope, ident in (("login-failed", pair), ("login-failed-address", address)):
                limits.hit(scope, ident)
            limits.hit("login-failed-name", name)
        elif response.status_code in (301, 302, 303):
            limits.hit("login-known", pair)
        return response

    return wrapped


def signup_limited(view: View) -> View:
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        ident = _address(request)
        if (wait := limits.peek("signup", ident)) is not None:
            return too_many(request, wait)
        response = view(request, *args, **kwargs)
        if response.status_code in (301, 302, 303):  # an account was made
            limits.hit("signup", ident)
        return response

    return wrapped
