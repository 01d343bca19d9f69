"""Structured logs: one JSON object a line, carrying the ids of what the line is about.

`bind(match=..., tournament=..., user=...)` names them for the rest of the current
context (a request, a socket's task, a Celery task: each has its own, through
`contextvars`); a record's own `extra={"match": ...}` wins over them. `JsonFormatter`
(`LOG_FORMAT=json`, the default in production) writes `time`, `level`, `logger`,
`message`, the ids that are known and, for an exception, its traceback.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
from typing import Any

IDS = ("match", "tournament", "user")

_CONTEXT: dict[str, contextvars.ContextVar[Any]] = {
    name: contextvars.ContextVar(f"cacho_log_{name}", default=None) for name in IDS
}


def bind(**ids: Any) -> None:
    """Name the match, tournament or user the current context works for (None: unknown)."""
    for name, value in ids.items():
        _CONTEXT[name].set(None if value is None else str(value))


def bound() -> dict[str, str]:
    return {name: value for name, var in _CONTEXT.items() if (value := var.get()) is not None}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(bound())
        for name in IDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)
