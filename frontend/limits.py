"""Login and signup throttling (cacho.limits, `CACHO_RATES`).

- Failed logins count per address and per user name (`login-failed`): past the limit
  the login page answers 429 until the window ends, whatever the password; a login that
  succeeds counts nothing, so a club's shared address is not locked by its members.
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

from cacho import limits
from frontend.labels import labels

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
        name = str(request.POST.get("username", ""))[:150].strip().lower()
        idents = [f"addr:{_address(request)}", f"user:{name}"]
        for ident in idents:
            if (wait := limits.peek("login-failed", ident)) is not None:
                return too_many(request, wait)
        response = view(request, *args, **kwargs)
        if response.status_code == 200:  # the form again: the login failed
            for ident in idents:
                limits.hit("login-failed", ident)
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
