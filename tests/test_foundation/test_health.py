"""/healthz, pages and API docs in-process, on the database the suite runs on."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client, override_settings

CLOSED_REDIS = "redis://127.0.0.1:1/0"


@pytest.mark.django_db
def test_healthz_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["backend"] == settings.CACHO_DATABASE
    assert body["checks"]["channel_layer"]["backend"] == settings.CACHO_CHANNEL_LAYER
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.django_db
def test_healthz_fails_on_closed_redis(client: Client) -> None:
    closed_layer = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": CLOSED_REDIS, "socket_timeout": None}]},
        }
    }
    with override_settings(
        CHANNEL_LAYERS=closed_layer, CELERY_BROKER_URL=CLOSED_REDIS, CELERY_TASK_ALWAYS_EAGER=False
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "fail"
    assert body["failing"] == ["broker", "channel_layer"]
    assert body["checks"]["database"]["ok"] is True


def test_healthz_fails_without_database_access(client: Client) -> None:
    """Outside django_db pytest-django blocks the database: the check reports it, no 500."""
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "database" in response.json()["failing"]


def test_healthz_is_get_only(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.mark.parametrize(
    ("language", "word", "internal"),
    [("es", "Mesas en vivo", "Base de datos"), ("en", "Live tables", "Database")],
)
def test_home_page_renders(client: Client, language: str, word: str, internal: str) -> None:
    """Home is the lobby, in the reader's language: live tables, no server internals."""
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    text = response.content.decode()
    assert f'<html lang="{language}">' in text
    assert "frontend/cacho.css" in text
    assert "Cacho" in text
    assert word in text and internal not in text


def test_api_schema_and_docs(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert schema.json()["info"]["title"] == "Cacho API"
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
    redoc = client.get("/api/redoc/")
    assert redoc.status_code == 200
    for page in (docs, redoc):  # served with the project's static files: they work offline
        assert b"/static/drf_spectacular_sidecar/" in page.content
        assert b"cdn.jsdelivr" not in page.content and b"unpkg.com" not in page.content
