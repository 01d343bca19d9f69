"""What nginx answers itself in the topology (deploy/local/nginx.conf, as deploy/nginx.conf):
a body too large (413), a URI too long (414), a malformed request (400). Under /api/ it is
JSON {code, message} as the application's own errors; everywhere it carries the security
headers. The application's /api/ errors that no view answers (an unmatched path, a NUL in
the path) carry them too."""

from __future__ import annotations

import json
import socket
import ssl
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from deploy.topology import Topology, running
from tests.live.harness import services_env

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("committed_db")]

HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")


@pytest.fixture
def topology(services: dict[str, str], nginx: str, tmp_path: Path) -> Any:
    with running(
        services_env(tmp_path), tmp_path / "run", web=1, worker=False, beat=False, migrate=False
    ) as running_topology:
        yield running_topology


def raw(topology: Topology, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request as bytes over TLS (what a client library would refuse to send)."""
    parts = urlsplit(topology.url)
    context = ssl.create_default_context(cafile=str(topology.certificate))
    with (
        socket.create_connection((parts.hostname, parts.port), timeout=10) as plain,
        context.wrap_socket(plain, server_hostname=parts.hostname) as tls,
    ):
        tls.sendall(request)
        data = b""
        while chunk := tls.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def get(topology: Topology, path: str) -> tuple[int, dict[str, str], bytes]:
    return raw(topology, f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())  # not chunked


def post(topology: Topology, path: str, size: int) -> tuple[int, dict[str, str], bytes]:
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
    )
    return raw(topology, head.encode() + b" " * size)


def test_nginx_refusals_are_json_under_the_api_and_carry_the_headers(topology: Topology) -> None:
    too_large = 11 * 1024 * 1024  # past client_max_body_size
    answers = {
        "body-too-large": (413, post(topology, "/api/clubs", too_large)),
        "uri-too-long": (414, get(topology, "/api/rulesets?q=" + "x" * 20_000)),
        "bad-request": (
            400,
            raw(topology, b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad header line\r\n\r\n"),
        ),
    }
    for code, (status, (got, headers, body)) in answers.items():
        assert got == status, (code, got, body[:300])
        assert headers["content-type"].startswith("application/json"), (code, headers)
        assert json.loads(body)["code"] == code
        assert all(name in headers for name in HEADERS), (code, headers)
    # Outside the API nginx's own page, with the headers too.
    status, headers, body = post(topology, "/login/", too_large)
    assert status == 413 and headers["content-type"].startswith("text/html")
    assert all(name in headers for name in HEADERS), headers


def test_api_errors_of_the_application_carry_the_headers(topology: Topology) -> None:
    for path, status in (("/api/no-such-thing", 404), ("/api/matches/x%00y", 400)):
        got, headers, body = get(topology, path)
        assert got == status, (path, got, body[:300])
        assert headers["content-type"].startswith("application/json")
        assert "code" in json.loads(body)
        assert all(name in headers for name in HEADERS), (path, headers)
