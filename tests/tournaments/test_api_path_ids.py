"""An id in a path written with digits that are not ASCII's ("³", "①": `str.isdigit`
holds for them, `int` raises) is no id here: every operation of the API answers it with a
4xx, anonymously and signed in, never with a server error."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from cacho.edge.inputs import plain_digits

pytestmark = pytest.mark.usefixtures("committed_db")

NOT_ASCII_DIGITS = ("³", "①")
METHODS = ("get", "post", "put", "patch", "delete")


def test_plain_digits_are_ascii_digits_only() -> None:
    assert plain_digits("0") and plain_digits("12") and plain_digits(12)
    for text in ("", " 1", "1 ", "-1", "+1", "1.0", "x", "³", "①", "١٢", "１２"):
        assert not plain_digits(text), text


@pytest.fixture
def quiet_requests() -> Iterator[None]:
    logger = logging.getLogger("django.request")  # hundreds of expected 4xx lines
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(level)


def operations() -> list[tuple[str, str]]:
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    return [
        (method, path)
        for path, item in sorted(paths.items())
        if "{" in path
        for method in METHODS
        if method in item
    ]


def test_a_path_id_in_digits_other_than_ascii_is_refused_not_a_server_error(
    quiet_requests: None, settings: Any
) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.clubs.members import create_club

    settings.CACHO_RATES = {}  # hundreds of requests from one client: no limit in this test
    user = get_user_model().objects.create_user("organiser", password="a-long-pass-123")
    create_club("Path club", "path-club", user)
    signed_in = Client()
    signed_in.force_login(user)
    found = operations()
    assert len(found) > 100, found
    failures = []
    for method, path in found:
        for digits in NOT_ASCII_DIGITS:
            url = re.sub(r"\{[^}]+\}", digits, path)
            for client in (Client(), signed_in):
                response = getattr(client, method)(url, data={}, content_type="application/json")
                if response.status_code >= 500:
                    failures.append(f"{method.upper()} {url}: {response.status_code}")
    assert not failures, "\n".join(failures)
