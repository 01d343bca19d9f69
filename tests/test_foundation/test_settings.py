"""The Django settings each environment produces (each in a fresh process)."""

from __future__ import annotations

from pathlib import Path

from tests.test_foundation.helpers import (
    PRODUCTION_SECRET,
    clean_env,
    django_says,
    manage,
    settings_of,
)

NAMES = (
    "CACHO_MODE",
    "CACHO_TIMERS",
    "DATABASES",
    "CHANNEL_LAYERS",
    "CELERY_BROKER_URL",
    "CELERY_TASK_ALWAYS_EAGER",
    "LANGUAGES",
    "USE_I18N",
    "MIDDLEWARE",
    "INSTALLED_APPS",
    "ASGI_APPLICATION",
    "REST_FRAMEWORK",
    "DEBUG",
)


def test_embedded_settings(tmp_path: Path) -> None:
    s = settings_of(clean_env(tmp_path), *NAMES)
    assert s["CACHO_MODE"] == "embedded"
    assert s["CACHO_TIMERS"] == "in-process"
    assert s["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s["DATABASES"]["default"]["NAME"] == str(tmp_path / "cacho.sqlite3")
    assert s["CHANNEL_LAYERS"]["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    assert s["CELERY_TASK_ALWAYS_EAGER"] is True
    assert s["CELERY_BROKER_URL"] == "memory://"
    assert s["DEBUG"] is True
    assert [code for code, _ in s["LANGUAGES"]] == ["es", "en"]
    assert s["USE_I18N"] is True
    assert "django.middleware.locale.LocaleMiddleware" in s["MIDDLEWARE"]
    for app in ("rest_framework", "drf_spectacular", "channels", "cacho", "tournaments", "frontend"):
        assert app in s["INSTALLED_APPS"]
    assert s["ASGI_APPLICATION"] == "project.asgi.application"
    assert s["REST_FRAMEWORK"]["DEFAULT_SCHEMA_CLASS"] == "drf_spectacular.openapi.AutoSchema"


def test_service_settings(tmp_path: Path) -> None:
    env = clean_env(
        tmp_path,
        DATABASE_URL="postgres://someone:pw@db.example:6543/cacho_x",
        REDIS_URL="redis://cache.example:6380/2",
    )
    s = settings_of(env, *NAMES)
    assert s["CACHO_MODE"] == "services"
    assert s["CACHO_TIMERS"] == "celery"
    db = s["DATABASES"]["default"]
    assert (
        db["ENGINE"] == "project.backends.pg"
    )  # Django's, with the pool's check of project/backends/db_pool.py
    assert (db["NAME"], db["USER"], db["HOST"], int(db["PORT"])) == ("cacho_x", "someone", "db.example", 6543)
    layer = s["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    # redis-py >= 8 would otherwise time out idle consumers after 5 s (docs/pitfalls.md).
    assert layer["CONFIG"]["hosts"] == [{"address": "redis://cache.example:6380/2", "socket_timeout": None}]
    lists = settings_of({**env, "CACHO_REDIS_LAYER": "lists"}, "CHANNEL_LAYERS")["CHANNEL_LAYERS"]["default"]
    assert lists["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert lists["CONFIG"]["hosts"] == layer["CONFIG"]["hosts"]
    assert s["CELERY_BROKER_URL"] == "redis://cache.example:6380/2"
    assert s["CELERY_TASK_ALWAYS_EAGER"] is False


def test_redis_client_is_below_8() -> None:
    import redis

    assert int(redis.__version__.split(".")[0]) < 8


def test_production_settings_are_hardened(tmp_path: Path) -> None:
    env = clean_env(tmp_path, CACHO_ENV="production", SECRET_KEY=PRODUCTION_SECRET, ALLOWED_HOSTS="x.org")
    s = settings_of(
        env,
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_PROXY_SSL_HEADER",
        "ALLOWED_HOSTS",
    )
    assert s["DEBUG"] is False
    assert s["SECURE_SSL_REDIRECT"] is True
    assert s["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert s["SESSION_COOKIE_SECURE"] is True
    assert s["CSRF_COOKIE_SECURE"] is True
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["ALLOWED_HOSTS"] == ["x.org"]


def test_production_refuses_to_start_without_secret_key(tmp_path: Path) -> None:
    env = clean_env(tmp_path, CACHO_ENV="production", ALLOWED_HOSTS="x.org")
    done = manage(env, "check")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "SECRET_KEY" in done.stderr


def test_check_deploy_passes_without_warnings_in_production(tmp_path: Path) -> None:
    env = clean_env(
        tmp_path,
        CACHO_ENV="production",
        SECRET_KEY=PRODUCTION_SECRET,
        ALLOWED_HOSTS="cacho.example.org",
        CSRF_TRUSTED_ORIGINS="https://cacho.example.org",
    )
    done = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output.upper(), output


def test_check_deploy_does_warn_in_development(tmp_path: Path) -> None:
    """The previous test can fail: the development settings do not pass --deploy."""
    done = manage(clean_env(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode != 0
    assert "security.W" in done.stdout + done.stderr


def test_a_serving_process_has_its_channel_layer_before_the_first_move(tmp_path: Path) -> None:
    """project.asgi loads the layer's backend at start-up: the first move's notice does
    not import channels-redis (~45 ms) while a player waits. No connection is opened."""
    env = clean_env(
        tmp_path, DATABASE_URL="postgres://nobody@127.0.0.1:1/none", REDIS_URL="redis://127.0.0.1:1/0"
    )
    code = (
        "import sys\n"
        "import project.asgi\n"
        "from channels.layers import channel_layers\n"
        "layer = channel_layers.backends.get('default')\n"
        "print('channels_redis.pubsub' in sys.modules, type(layer).__name__)\n"
    )
    assert django_says(env, code).split() == ["True", "RedisPubSubChannelLayer"]
