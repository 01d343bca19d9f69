"""The one place that reads the environment.

`load(environ)` turns environment variables into a frozen `Config`; `settings.py`
calls it once with `os.environ` and derives every Django setting from it. No other
module reads `os.environ` for configuration.

Modes:

* nothing set -> **embedded**: SQLite under ``CACHO_DATA_DIR`` (default ``var/``),
  the in-memory channel layer, timers in-process (Celery runs tasks eagerly).
* ``DATABASE_URL`` -> PostgreSQL (psycopg 3).
* ``REDIS_URL`` -> channels-redis channel layer and a Celery broker on Redis.
* ``CACHO_ENV=production`` -> hardened settings; refuses to start without
  ``SECRET_KEY`` (or ``DJANGO_SECRET_KEY``) and ``ALLOWED_HOSTS``.

This module imports nothing from Django so that it can be unit tested and run
as ``python -m tournaments.config`` to print the mode.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "cacho-development-only-secret-key-never-use-in-production"

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


class ConfigError(Exception):
    """The environment does not describe a runnable configuration."""


@dataclass(frozen=True)
class Config:
    env: str  # "development" | "production"
    secret_key: str
    debug: bool
    allowed_hosts: tuple[str, ...]
    csrf_trusted_origins: tuple[str, ...]
    data_dir: Path
    database_url: str | None
    redis_url: str | None
    static_root: Path
    secure_ssl_redirect: bool
    hsts_seconds: int
    log_level: str
    demo_bots: bool = False
    # The event store's statements are prepared on each PostgreSQL connection (parsed and
    # planned once); off behind a pooler that cannot keep them (PgBouncer before 1.21, or
    # without max_prepared_statements, in transaction mode).
    prepared_statements: bool = True
    # The Unix socket of this host's notice relay (cacho.services.relay), or "" to write
    # every notice to Redis from the committing process. A relay that is not running
    # costs nothing but the fallback.
    notice_relay: str = ""

    @property
    def production(self) -> bool:
        return self.env == "production"

    @property
    def database(self) -> str:
        return "postgresql" if self.database_url else "sqlite"

    @property
    def sqlite_path(self) -> Path:
        return self.data_dir / "cacho.sqlite3"

    @property
    def channel_layer(self) -> str:
        return "redis" if self.redis_url else "in-memory"

    @property
    def timers(self) -> str:
        return "celery" if self.redis_url else "in-process"

    @property
    def mode(self) -> str:
        if not self.database_url and not self.redis_url:
            return "embedded"
        if self.database_url and self.redis_url:
            return "services"
        return "mixed"

    def describe(self) -> str:
        database = (
            f"PostgreSQL at {_redact(self.database_url)}"
            if self.database_url
            else f"SQLite at {self.sqlite_path}"
        )
        layer = f"Redis at {_redact(self.redis_url)}" if self.redis_url else "in-memory"
        timers = "Celery workers (broker on Redis)" if self.redis_url else "in-process"
        return (
            f"Cacho {self.mode} mode ({self.env}): database {database}; "
            f"channel layer {layer}; timers {timers}"
        )


def _redact(url: str | None) -> str:
    """The URL without its password, for logs and banners."""
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()


def _get(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def _bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    value = environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ConfigError(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def _int(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _get(environ, name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ConfigError(f"{name}={value!r} is not an integer") from exc


def _list(environ: Mapping[str, str], name: str) -> tuple[str, ...] | None:
    value = _get(environ, name)
    if value is None:
        return None
    return tuple(item.strip() for item in value.split(",") if item.strip())


def load(environ: Mapping[str, str]) -> Config:
    env = (_get(environ, "CACHO_ENV") or "development").lower()
    if env not in ("development", "production"):
        raise ConfigError(f"CACHO_ENV={env!r}: expected 'development' or 'production'")
    production = env == "production"

    secret_key = _get(environ, "SECRET_KEY") or _get(environ, "DJANGO_SECRET_KEY")
    allowed_hosts = _list(environ, "ALLOWED_HOSTS")
    if production:
        if not secret_key:
            raise ConfigError("CACHO_ENV=production needs SECRET_KEY (or DJANGO_SECRET_KEY)")
        if not allowed_hosts:
            raise ConfigError("CACHO_ENV=production needs ALLOWED_HOSTS (comma-separated host names)")
        debug = False
        if _bool(environ, "DEBUG", False):
            raise ConfigError("DEBUG must be off when CACHO_ENV=production")
    else:
        debug = _bool(environ, "DEBUG", True)

    database_url = _get(environ, "DATABASE_URL")
    if database_url and urlsplit(database_url).scheme not in ("postgres", "postgresql", "pgsql"):
        raise ConfigError("DATABASE_URL must be a postgres:// URL (leave it unset for embedded SQLite)")
    redis_url = _get(environ, "REDIS_URL")
    if redis_url and urlsplit(redis_url).scheme not in ("redis", "rediss", "unix"):
        raise ConfigError("REDIS_URL must be a redis://, rediss:// or unix:// URL")

    data_dir = Path(_get(environ, "CACHO_DATA_DIR") or BASE_DIR / "var")
    static_root = Path(_get(environ, "STATIC_ROOT") or BASE_DIR / "staticfiles")

    return Config(
        env=env,
        secret_key=secret_key or DEV_SECRET_KEY,
        debug=debug,
        allowed_hosts=allowed_hosts or ("127.0.0.1", "localhost", "[::1]", "testserver"),
        csrf_trusted_origins=_list(environ, "CSRF_TRUSTED_ORIGINS") or (),
        data_dir=data_dir,
        database_url=database_url,
        redis_url=redis_url,
        static_root=static_root,
        secure_ssl_redirect=_bool(environ, "SECURE_SSL_REDIRECT", production),
        hsts_seconds=_int(environ, "HSTS_SECONDS", 31_536_000 if production else 0),
        log_level=(_get(environ, "LOG_LEVEL") or "INFO").upper(),
        demo_bots=_bool(environ, "CACHO_DEMO_BOTS", False),
        prepared_statements=_bool(environ, "CACHO_DB_PREPARED", True),
        notice_relay=_get(environ, "CACHO_NOTICE_RELAY") or "",
    )


def main() -> int:
    try:
        print(load(os.environ).describe())
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
