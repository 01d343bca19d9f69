"""A worker survives acknowledging a finished task on a channel that went with a lost
broker connection (project/backends/broker.py): the acknowledgement is logged as lost instead
of stopping the worker."""

from __future__ import annotations

import logging
import os

import pytest
from kombu import Connection

from project.backends.broker import Transport
from tests.needs import missing


def test_an_acknowledgement_after_the_connection_went_is_logged_not_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        missing("REDIS_URL not set: run the suite with `make test`")
    name = "test-broker-ack"  # one per Redis database: each test worker has its own
    with Connection(url, transport=Transport) as connection:
        queue = connection.SimpleQueue(name)
        queue.put({"task": "done"})
        message = queue.get(timeout=5)
        channel = message.channel
        # What the worker does on a lost connection: its channels closed, their pools dropped.
        channel.close()
        channel._disconnect_pools()
        with caplog.at_level(logging.WARNING, logger="project.backends.broker"):
            message.ack()  # raised AttributeError ('NoneType' ... 'client'): the worker stopped
        assert "acknowledgement is lost" in caplog.text
    with Connection(url, transport=Transport) as connection:
        connection.SimpleQueue(name).clear()  # the closed channel put the message back
