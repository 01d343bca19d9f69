"""A real SMTP server for the mail tests (aiosmtpd on a free port of 127.0.0.1): what it
receives is parsed and kept; a test waits for a message without sleeping."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass(frozen=True)
class Received:
    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    def part(self, kind: str) -> str:
        body = self.message.get_body(preferencelist=(kind,))
        return "" if body is None else str(body.get_content())  # type: ignore[attr-defined]

    @property
    def text(self) -> str:
        return self.part("plain")

    @property
    def html(self) -> str:
        return self.part("html")

    def links(self) -> list[str]:
        return re.findall(r"https?://\S+", self.text)


class Mailbox:
    """The aiosmtpd handler: every message accepted, parsed, kept in order."""

    def __init__(self) -> None:
        self.messages: list[Received] = []
        self._changed = threading.Condition()
        self.refuse: set[str] = set()  # addresses answered 550

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address.lower() in self.refuse:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        received = Received(envelope.mail_from, tuple(envelope.rcpt_tos), parsed)  # type: ignore[arg-type]
        with self._changed:
            self.messages.append(received)
            self._changed.notify_all()
        return "250 Message accepted for delivery"

    def clear(self) -> None:
        with self._changed:
            self.messages.clear()
            self.refuse.clear()

    def to(self, address: str) -> list[Received]:
        with self._changed:
            return self._to(address)

    def wait_for(self, address: str, count: int = 1, timeout: float = 10.0) -> list[Received]:
        """The first `count` messages to `address`, waiting up to `timeout` seconds for them."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._to(address)) >= count, timeout=timeout)
            found = self._to(address)
        assert len(found) >= count, f"{len(found)} message(s) to {address}, expected {count}"
        return found[:count]

    def _to(self, address: str) -> list[Received]:
        return [m for m in self.messages if address.lower() in (r.lower() for r in m.recipients)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SmtpServer:
    def __init__(self) -> None:
        self.mailbox = Mailbox()
        self.port = _free_port()
        self.controller = Controller(self.mailbox, hostname="127.0.0.1", port=self.port)

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    @property
    def url(self) -> str:
        return f"smtp+insecure://127.0.0.1:{self.port}?from=Cacho%20%3Cnoreply%40cacho.test%3E"
