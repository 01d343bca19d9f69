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
as ``python -m project.config`` to print the mode.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

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
    # --- deploy: pooling, logs, metrics (docs/deploy.md) ---
    # Behind a transaction-mode pooler (PgBouncer `pool_mode = transaction`): no server-side
    # cursors (Django's WITH HOLD cursors outlive the transaction the pooler lends), and the
    # prepared statements off unless CACHO_DB_PREPARED says otherwise.
    transaction_pooling: bool = False
    log_format: str = "plain"  # "plain" | "json" (cacho.observability.logs)
    # prometheus-client's multiprocess directory: every uvicorn and Celery process of the
    # host writes its figures there and /metrics sums them. Unset: one process's own.
    metrics_dir: Path | None = None
    metrics_token: str | None = None  # `Authorization: Bearer <token>` opens /metrics
    metrics_allow: tuple[str, ...] = ("127.0.0.1/32", "::1/128")  # ... and so do these networks
    metrics_port: int | None = None  # a Celery worker serves its own figures on this port
    # One match socket's frames (docs/security.md): a burst, then so many a second.
    live_frame_burst: int = 60
    live_frame_rate: int = 20
    # A match's projections (lists, the admin) are written at most once this many seconds.
    projection_hold: float = 2.0
    # A Celery worker touches this file once ready and removes it on shutdown (the readiness
    # probe of a process without HTTP: `test -f`).
    worker_ready_file: Path | None = None
    # Browser push notices (Web Push, docs/notices.md): the VAPID key pair (base64url; the
    # public key an uncompressed secp256r1 point) and the contact the push services see.
    # Unset: no push.
    vapid_public_key: str = ""
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@localhost"
    # Each process's PostgreSQL connections: psycopg's pool through Django's `pool` option,
    # at most `db_pool_max` (0: no pool and no persistent connection: one per request).
    db_pool_min: int = 1
    db_pool_max: int = 8
    db_pool_timeout: float = 10.0
    # Which channels-redis layer carries the notices (docs/live.md): "pubsub" (one PUBLISH
    # a notice, each server process subscribed once per match it serves) or "lists" (its
    # list-based layer: a Lua script a notice and a blocking pop per message received).
    redis_layer: str = "pubsub"
    # Outgoing mail (`EMAIL_URL`, docs/accounts.md): the console by default.
    email: EmailConfig = field(default_factory=lambda: parse_email_url("console:"))
    # The site's address as its mail links name it (`SITE_URL`): the first allowed host over
    # https in production, http://localhost:8000 otherwise.
    site_url: str = "http://localhost:8000"

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


EMAIL_SCHEMES = ("smtp", "smtps", "smtp+insecure", "console", "locmem")


@dataclass(frozen=True)
class EmailConfig:
    """Where outgoing mail goes, from `EMAIL_URL`:

    * ``smtp://user:pass@host:587`` — SMTP with STARTTLS (port 587 unless given);
    * ``smtps://user:pass@host:465`` — SMTP over implicit TLS (port 465 unless given);
    * ``smtp+insecure://host:25`` — no TLS at all: a relay on the same host or network;
    * ``console:`` — printed on the standard output (the default);
    * ``locmem:`` — kept in memory (`django.core.mail.outbox`), for tests.

    The query may set the sender and the timeout: ``?from=Cacho%20<noreply@example.org>&timeout=10``.
    """

    backend: str
    host: str = ""
    port: int = 0
    user: str = ""
    password: str = field(default="", repr=False)
    use_tls: bool = False
    use_ssl: bool = False
    timeout: int = 10
    sender: str = "Cacho <noreply@localhost>"
    url: str = "console:"

    def describe(self) -> str:
        return _redact(self.url)


def parse_email_url(url: str) -> EmailConfig:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in EMAIL_SCHEMES:
        raise ConfigError(
            f"EMAIL_URL={_redact(url)!r}: expected smtp://, smtps://, smtp+insecure://, console: or locmem:"
        )
    query = parse_qs(parts.query)
    sender = (query.get("from") or ["Cacho <noreply@localhost>"])[-1].strip()
    try:
        timeout = int((query.get("timeout") or ["10"])[-1])
    except ValueError as exc:
        raise ConfigError("EMAIL_URL: timeout= is a whole number of seconds") from exc
    if scheme == "console":
        return EmailConfig("django.core.mail.backends.console.EmailBackend", sender=sender, url=url)
    if scheme == "locmem":
        return EmailConfig("django.core.mail.backends.locmem.EmailBackend", sender=sender, url=url)
    if not parts.hostname:
        raise ConfigError(f"EMAIL_URL={_redact(url)!r} names no host")
    try:
        port = parts.port or {"smtp": 587, "smtps": 465, "smtp+insecure": 25}[scheme]
    except ValueError as exc:
        raise ConfigError(f"EMAIL_URL={_redact(url)!r}: {exc}") from exc
    return EmailConfig(
        "django.core.mail.backends.smtp.EmailBackend",
        host=parts.hostname,
        port=port,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        use_tls=scheme == "smtp",
        use_ssl=scheme == "smtps",
        timeout=timeout,
        sender=sender,
        url=url,
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


def _positive(environ: Mapping[str, str], name: str, default: int) -> int:
    value = _int(environ, name, default)
    if value < 1:
        raise ConfigError(f"{name}={value}: expected a whole number of at least 1")
    return value


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    value = _get(environ, name)
    if value is None:
        return default
    try:
        seconds = float(value)
    except ValueError as exc:
        raise ConfigError(f"{name}={value!r} is not a number of seconds") from exc
    if not 0 <= seconds <= 3600:
        raise ConfigError(f"{name}={value}: expected seconds from 0 to 3600")
    return seconds


def _list(environ: Mapping[str, str], name: str) -> tuple[str, ...] | None:
    value = _get(environ, name)
    if value is None:
        return None
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _networks(environ: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated IP networks (`10.0.0.0/8`, a lone address); loopback by default."""
    items = _list(environ, name)
    if items is None:
        return ("127.0.0.1/32", "::1/128")
    try:
        return tuple(str(ipaddress.ip_network(item, strict=False)) for item in items)
    except ValueError as exc:
        raise ConfigError(f"{name}={environ[name]!r}: {exc}") from exc


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

    redis_layer = (_get(environ, "CACHO_REDIS_LAYER") or "pubsub").lower()
    if redis_layer not in ("pubsub", "lists"):
        raise ConfigError(f"CACHO_REDIS_LAYER={redis_layer!r}: expected 'pubsub' or 'lists'")

    data_dir = Path(_get(environ, "CACHO_DATA_DIR") or BASE_DIR / "var")
    static_root = Path(_get(environ, "STATIC_ROOT") or BASE_DIR / "staticfiles")

    # --- deploy ---
    transaction_pooling = _bool(environ, "CACHO_DB_TRANSACTION_POOLING", False)
    log_format = (_get(environ, "LOG_FORMAT") or ("json" if production else "plain")).lower()
    if log_format not in ("plain", "json"):
        raise ConfigError(f"LOG_FORMAT={log_format!r}: expected 'plain' or 'json'")
    metrics_dir = _get(environ, "PROMETHEUS_MULTIPROC_DIR")

    return Config(
        env=env,
        secret_key=secret_key or DEV_SECRET_KEY,
        debug=debug,
        allowed_hosts=allowed_hosts or ("127.0.0.1", "localhost", "[::1]", "testserver"),
        csrf_trusted_origins=_list(environ, "CSRF_TRUSTED_ORIGINS") or (),
        data_dir=data_dir,
        database_url=database_url,
        redis_url=redis_url,
        redis_layer=redis_layer,
        email=parse_email_url(_get(environ, "EMAIL_URL") or "console:"),
        site_url=_site_url(environ, production, allowed_hosts),
        static_root=static_root,
        secure_ssl_redirect=_bool(environ, "SECURE_SSL_REDIRECT", production),
        hsts_seconds=_int(environ, "HSTS_SECONDS", 31_536_000 if production else 0),
        log_level=(_get(environ, "LOG_LEVEL") or "INFO").upper(),
        demo_bots=_bool(environ, "CACHO_DEMO_BOTS", False),
        prepared_statements=_bool(environ, "CACHO_DB_PREPARED", not transaction_pooling),
        **_pool(environ),
        # --- deploy ---
        transaction_pooling=transaction_pooling,
        log_format=log_format,
        metrics_dir=Path(metrics_dir) if metrics_dir else None,
        metrics_token=_get(environ, "CACHO_METRICS_TOKEN"),
        metrics_allow=_networks(environ, "CACHO_METRICS_ALLOW"),
        metrics_port=_int(environ, "CACHO_METRICS_PORT", 0) or None,
        live_frame_burst=_positive(environ, "CACHO_LIVE_FRAME_BURST", 60),
        live_frame_rate=_positive(environ, "CACHO_LIVE_FRAME_RATE", 20),
        projection_hold=_seconds(environ, "CACHO_PROJECTION_HOLD", 2.0),
        vapid_public_key=_get(environ, "VAPID_PUBLIC_KEY") or "",
        vapid_private_key=_get(environ, "VAPID_PRIVATE_KEY") or "",
        vapid_subject=_get(environ, "VAPID_SUBJECT") or "mailto:admin@localhost",
        worker_ready_file=Path(ready_file)
        if (ready_file := _get(environ, "CACHO_WORKER_READY_FILE"))
        else None,
    )


def _site_url(environ: Mapping[str, str], production: bool, hosts: tuple[str, ...] | None) -> str:
    url = _get(environ, "SITE_URL")
    if url is None:
        named = [h for h in hosts or () if h and not h.startswith(".") and h != "*"]
        return f"https://{named[0]}" if production and named else "http://localhost:8000"
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        raise ConfigError(f"SITE_URL={url!r}: expected http(s)://host[:port]")
    return url.rstrip("/")


def _pool(environ: Mapping[str, str]) -> dict[str, int | float]:
    low, high = _int(environ, "CACHO_DB_POOL_MIN", 1), _int(environ, "CACHO_DB_POOL_MAX", 8)
    timeout = _get(environ, "CACHO_DB_POOL_TIMEOUT") or "10"
    try:
        wait = float(timeout)
    except ValueError as exc:
        raise ConfigError(f"CACHO_DB_POOL_TIMEOUT={timeout!r} is not a number of seconds") from exc
    if high < 0 or low < 0 or (high and low > high) or wait <= 0:
        raise ConfigError("CACHO_DB_POOL_MIN <= CACHO_DB_POOL_MAX, both 0 or more; CACHO_DB_POOL_TIMEOUT > 0")
    return {"db_pool_min": low, "db_pool_max": high, "db_pool_timeout": wait}


def main() -> int:
    try:
        print(load(os.environ).describe())
    except ConfigError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
