"""The deployment's settings, the JSON log lines and who may read /metrics, in-process."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from cacho.observability import logs
from project.config import ConfigError, load
from tests.test_foundation.helpers import PRODUCTION_SECRET, clean_env, settings_of

PRODUCTION = {
    "CACHO_ENV": "production",
    "SECRET_KEY": PRODUCTION_SECRET,
    "ALLOWED_HOSTS": "cacho.example.org",
}


def test_logs_are_json_in_production_and_plain_elsewhere() -> None:
    assert load(PRODUCTION).log_format == "json"
    assert load({}).log_format == "plain"
    assert load({"LOG_FORMAT": "JSON"}).log_format == "json"
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load({"LOG_FORMAT": "xml"})


def test_transaction_pooling_turns_prepared_statements_off_unless_asked() -> None:
    assert load({}).prepared_statements is True
    pooled = load({"CACHO_DB_TRANSACTION_POOLING": "1"})
    assert pooled.transaction_pooling and not pooled.prepared_statements
    assert load({"CACHO_DB_TRANSACTION_POOLING": "1", "CACHO_DB_PREPARED": "1"}).prepared_statements


def test_metrics_settings_are_read_and_checked() -> None:
    config = load({"CACHO_METRICS_ALLOW": "10.0.0.0/8, 192.0.2.7", "PROMETHEUS_MULTIPROC_DIR": "/tmp/m"})
    assert config.metrics_allow == ("10.0.0.0/8", "192.0.2.7/32")
    assert config.metrics_dir == Path("/tmp/m")
    assert load({}).metrics_allow == ("127.0.0.1/32", "::1/128")
    with pytest.raises(ConfigError, match="CACHO_METRICS_ALLOW"):
        load({"CACHO_METRICS_ALLOW": "not-a-network"})
    assert load({"CACHO_METRICS_PORT": "9808"}).metrics_port == 9808


@pytest.mark.slow
def test_settings_follow_the_pooling_and_the_log_format(tmp_path: Path) -> None:
    env = clean_env(
        tmp_path,
        **PRODUCTION,
        DATABASE_URL="postgres://cacho@127.0.0.1:6432/cacho",
        CACHO_DB_TRANSACTION_POOLING="1",
    )
    seen = settings_of(env, "DATABASES", "CACHO_DB_PREPARED", "LOGGING", "SECURE_REDIRECT_EXEMPT")
    assert seen["DATABASES"]["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert seen["CACHO_DB_PREPARED"] is False
    assert seen["LOGGING"]["handlers"]["console"]["formatter"] == "json"
    assert {r"^healthz$", r"^readyz$", r"^metrics$"} <= set(seen["SECURE_REDIRECT_EXEMPT"])


def test_a_json_line_carries_the_ids_it_is_about() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("tests.deploy.json")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logs.bind(match="m-1", tournament=7, user=None)
        logger.warning("a %s", "ruling", extra={"user": 42})
        try:
            raise ValueError("bad dice")
        except ValueError:
            logger.exception("failed")
        logs.bind(match=None, tournament=None)
        logger.info("quiet")
    finally:
        logger.removeHandler(handler)
        logs.bind(match=None, tournament=None, user=None)
    first, second, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["message"] == "a ruling" and first["level"] == "WARNING"
    assert (first["match"], first["tournament"], first["user"]) == ("m-1", "7", "42")
    assert first["logger"] == "tests.deploy.json" and first["time"].endswith("+00:00")
    assert "ValueError: bad dice" in second["exception"] and second["match"] == "m-1"
    assert "match" not in third and "user" not in third


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("address", "header", "status"),
    [
        ("127.0.0.1", "", 200),
        ("10.1.2.3", "", 403),
        ("10.1.2.3", "Bearer wrong", 403),
        ("10.1.2.3", "Bearer s3cret-token", 200),
        ("192.0.2.9", "", 200),
    ],
)
def test_metrics_open_to_the_token_or_an_allowed_address(
    settings: Any, address: str, header: str, status: int
) -> None:
    settings.CACHO_METRICS_TOKEN = "s3cret-token"
    settings.CACHO_METRICS_ALLOW = ["127.0.0.1/32", "192.0.2.0/24"]
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    response = Client(REMOTE_ADDR=address).get("/metrics", **extra)
    assert response.status_code == status
    if status == 403:
        assert response.json()["code"] == "metrics-forbidden"
    else:
        assert b"# TYPE cacho_command_seconds histogram" in response.content
        assert b"cacho_open_disputes 0.0" in response.content


def test_the_clean_environment_of_the_tests_knows_every_setting() -> None:
    """tests/test_foundation/helpers.py's CONFIG_VARS: a subprocess of a test sees only
    what the test sets (a developer's PROMETHEUS_MULTIPROC_DIR must not leak in)."""
    from tests.test_foundation import helpers

    source = (Path(helpers.__file__).parents[2] / "project" / "config.py").read_text()
    read = set(re.findall(r'_\w+\(environ, "([A-Z_]+)"', source))
    assert read <= set(helpers.CONFIG_VARS), read - set(helpers.CONFIG_VARS)
