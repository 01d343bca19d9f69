"""Page views. They render templates; data comes through the public API and websockets."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "frontend/home.html",
        {
            "mode": settings.CACHO_MODE,
            "database": settings.CACHO_DATABASE,
            "channel_layer": settings.CACHO_CHANNEL_LAYER,
            "timers": settings.CACHO_TIMERS,
        },
    )
