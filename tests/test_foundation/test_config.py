"""project/config.py: the environment, read in one place (pure, no Django)."""

from __future__ import annotations

from pathlib import Path

import pytest

from project.config import BASE_DIR, DEV_SECRET_KEY, ConfigError, load

PROD = {"CACHO_ENV": "production", "SECRET_KEY": "s" * 60, "ALLOWED_HOSTS": "cacho.example.org"}


def test_nothing_set_is_embedded_mode() -> None:
    config = load({})
    assert config.mode == "embedded"
    assert config.env == "development"
    assert (config.database, config.channel_layer, config.timers) == ("sqlite", "in-memory", "in-process")
    assert config.sqlite_path == BASE_DIR / "var" / "cacho.sqlite3"
    assert config.debug is True
    assert config.secret_key == DEV_SECRET_KEY
    assert "127.0.0.1" in config.allowed_hosts
    assert "embedded mode" in config.describe()


def test_data_dir_moves_the_sqlite_file(tmp_path: Path) -> None:
    assert load({"CACHO_DATA_DIR": str(tmp_path)}).sqlite_path == tmp_path / "cacho.sqlite3"


def test_database_and_redis_urls_select_the_services() -> None:
    config = load({"DATABASE_URL": "postgres://u:pw@db:5432/cacho", "REDIS_URL": "redis://r:6379/0"})
    assert config.mode == "services"
    assert (config.database, config.channel_layer, config.timers) == ("postgresql", "redis", "celery")
    assert "pw" not in config.describe()
    assert "u:***@db" in config.describe()


def test_one_service_alone_is_mixed() -> None:
    config = load({"REDIS_URL": "redis://r:6379/0"})
    assert config.mode == "mixed"
    assert config.database == "sqlite"
    assert config.timers == "celery"


def test_blank_values_count_as_unset() -> None:
    assert load({"DATABASE_URL": "  ", "REDIS_URL": ""}).mode == "embedded"


@pytest.mark.parametrize(
    ("environ", "needle"),
    [
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://x"}, "REDIS_URL"),
        ({"CACHO_ENV": "staging"}, "CACHO_ENV"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"HSTS_SECONDS": "a year"}, "HSTS_SECONDS"),
        ({"CACHO_LIVE_FRAME_BURST": "0"}, "CACHO_LIVE_FRAME_BURST"),
        ({"CACHO_LIVE_FRAME_RATE": "fast"}, "CACHO_LIVE_FRAME_RATE"),
        ({"CACHO_PROJECTION_HOLD": "-1"}, "CACHO_PROJECTION_HOLD"),
        ({"CACHO_PROJECTION_HOLD": "soon"}, "CACHO_PROJECTION_HOLD"),
    ],
)
def test_malformed_values_are_refused(environ: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        load(environ)


def test_a_match_sockets_frame_limits_come_from_the_environment() -> None:
    assert (load({}).live_frame_burst, load({}).live_frame_rate) == (60, 20)
    tuned = load({"CACHO_LIVE_FRAME_BURST": "120", "CACHO_LIVE_FRAME_RATE": "40"})
    assert (tuned.live_frame_burst, tuned.live_frame_rate) == (120, 40)


def test_the_projection_hold_comes_from_the_environment() -> None:
    assert load({}).projection_hold == 2.0
    assert load({"CACHO_PROJECTION_HOLD": "7.5"}).projection_hold == 7.5
    assert load({"CACHO_PROJECTION_HOLD": "0"}).projection_hold == 0.0


def test_production_refuses_to_start_without_a_secret_key() -> None:
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        load({key: value for key, value in PROD.items() if key != "SECRET_KEY"})


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    with pytest.raises(ConfigError, match="ALLOWED_HOSTS"):
        load({key: value for key, value in PROD.items() if key != "ALLOWED_HOSTS"})


def test_production_refuses_debug() -> None:
    with pytest.raises(ConfigError, match="DEBUG"):
        load({**PROD, "DEBUG": "1"})


def test_production_defaults_are_hardened() -> None:
    config = load(PROD)
    assert config.production
    assert config.debug is False
    assert config.secure_ssl_redirect is True
    assert config.hsts_seconds >= 31_536_000
    assert config.allowed_hosts == ("cacho.example.org",)


def test_django_secret_key_is_an_alias() -> None:
    environ = {**PROD, "DJANGO_SECRET_KEY": "d" * 60}
    del environ["SECRET_KEY"]
    assert load(environ).secret_key == "d" * 60


def test_lists_are_comma_separated() -> None:
    config = load({**PROD, "ALLOWED_HOSTS": " a.org, b.org ,", "CSRF_TRUSTED_ORIGINS": "https://a.org"})
    assert config.allowed_hosts == ("a.org", "b.org")
    assert config.csrf_trusted_origins == ("https://a.org",)


def test_prepared_statements_are_on_unless_turned_off() -> None:
    assert load({}).prepared_statements is True
    assert load({"CACHO_DB_PREPARED": "0"}).prepared_statements is False
    assert load({"CACHO_DB_PREPARED": "on"}).prepared_statements is True
    with pytest.raises(ConfigError, match="CACHO_DB_PREPARED"):
        load({"CACHO_DB_PREPARED": "sometimes"})


def test_the_connection_pool_is_sized_per_process_from_the_environment(tmp_path: Path) -> None:
    from tests.test_foundation.helpers import clean_env, settings_of

    url = "postgres://u@127.0.0.1:1/x"
    default = load({"DATABASE_URL": url})
    assert (default.db_pool_min, default.db_pool_max, default.db_pool_timeout) == (1, 8, 10.0)
    sized = load({"DATABASE_URL": url, "CACHO_DB_POOL_MAX": "3", "CACHO_DB_POOL_MIN": "0"})
    assert (sized.db_pool_min, sized.db_pool_max) == (0, 3)
    for bad in ({"CACHO_DB_POOL_MAX": "2", "CACHO_DB_POOL_MIN": "5"}, {"CACHO_DB_POOL_TIMEOUT": "soon"}):
        with pytest.raises(ConfigError):
            load({"DATABASE_URL": url, **bad})
    pooled = settings_of(clean_env(tmp_path, DATABASE_URL=url, CACHO_DB_POOL_MAX="3"), "DATABASES")
    database = pooled["DATABASES"]["default"]
    assert database["CONN_MAX_AGE"] == 0  # no connection kept per thread
    assert database["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 3, "timeout": 10.0}
    assert database["ENGINE"] == "project.backends.pg"  # the pool's check (project/backends/db_pool.py)
    unpooled = settings_of(clean_env(tmp_path, DATABASE_URL=url, CACHO_DB_POOL_MAX="0"), "DATABASES")
    assert "pool" not in unpooled["DATABASES"]["default"]["OPTIONS"]
    assert unpooled["DATABASES"]["default"]["CONN_MAX_AGE"] == 0
