"""A Web Push endpoint served by the suite: a real HTTP server on 127.0.0.1 that keeps each
push it receives and decrypts it (RFC 8291, aes128gcm) with the keys of the browser
subscription it made, as a browser's push service and browser together would."""

from __future__ import annotations

import base64
import http.server
import json
import os
import threading
from dataclasses import dataclass, field
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Push:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushServer:
    pushes: list[Push] = field(default_factory=list)
    status: int = 201  # what the endpoint answers (410: the subscription is gone)

    def __post_init__(self) -> None:
        self._changed = threading.Condition()
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                push = Push(
                    self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length)
                )
                self.send_response(owner.status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with owner._changed:
                    owner.pushes.append(push)
                    owner._changed.notify_all()

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/push/browser-1"

    def subscription(self) -> dict[str, Any]:
        """The browser's `PushSubscription` as JSON, as the site's script posts it."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}}

    def wait(self, count: int = 1, timeout: float = 10.0) -> list[Push]:
        with self._changed:
            self._changed.wait_for(lambda: len(self.pushes) >= count, timeout=timeout)
            return list(self.pushes)

    def decrypt(self, push: Push) -> dict[str, Any]:
        clear = http_ece.decrypt(push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        data: dict[str, Any] = json.loads(clear)
        return data

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
