"""The Celery broker's transport: kombu's Redis transport, except that a worker survives a
Redis that came back empty.

On a lost connection Celery closes the broker connection, and closing a channel puts the
messages the worker holds unacknowledged (every pending turn timer: an ETA task) back on
the queue. By then kombu has let go of the connection's settings, and restoring raised an
AttributeError that Celery does not expect from a close: the worker stopped for good
(`Unrecoverable error`) and no timer ran until someone restarted it. Here a failed restore
is logged and the worker reconnects. Nothing is lost by it: a Redis that restarted empty
has no queue to put them back on, a Redis that stayed up still has them in its unacked
index (redelivered after the visibility timeout), and the beat's deadline sweep plays any
turn whose timer was lost meanwhile (cacho.tasks.sweep_deadlines).

The same holds for a task that finishes after its channel went with the connection: its
acknowledgement (late, after the task) raised the same AttributeError and stopped the
worker. It is logged instead; the message, if Redis still has it, is delivered again and
the task (idempotent, as every task here) finds its work done.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

logger = logging.getLogger(__name__)


class QoS(redis.QoS):  # type: ignore[misc]
    def restore_unacked(self, client: Any = None) -> Any:
        try:
            return super().restore_unacked(client)
        except Exception:
            logger.warning(
                "broker: %d unacknowledged messages not restored (the connection is gone)",
                len(self._delivered),
                exc_info=True,
            )
            self._delivered.clear()
            return None

    def ack(self, delivery_tag: Any) -> Any:
        try:
            return super().ack(delivery_tag)
        except AttributeError:  # the channel's connection is gone (closed on a lost connection)
            logger.warning(
                "broker: a finished task's acknowledgement is lost (the connection is gone)", exc_info=True
            )
            self._delivered.pop(delivery_tag, None)
            return None


class Channel(redis.Channel):  # type: ignore[misc]
    QoS = QoS


class Transport(redis.Transport):  # type: ignore[misc]
    Channel = Channel
