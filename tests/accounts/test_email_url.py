"""`EMAIL_URL`: one setting names the mail server, its TLS, its credentials and the sender;
`SITE_URL` the links' site. Pure (no database)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from project.config import ConfigError, load, parse_email_url


def test_the_default_is_the_console() -> None:
    config = load({})
    assert config.email.backend == "django.core.mail.backends.console.EmailBackend"
    assert config.site_url == "http://localhost:8000"


def test_smtp_with_starttls_and_percent_encoded_credentials() -> None:
    email = parse_email_url(
        "smtp://mailer%40example.org:p%3Ass%2Fw@mail.example.org?from=Cacho%20%3Cno%40x.org%3E"
    )
    assert (email.host, email.port, email.use_tls, email.use_ssl) == ("mail.example.org", 587, True, False)
    assert (email.user, email.password) == ("mailer@example.org", "p:ss/w")
    assert email.sender == "Cacho <no@x.org>"
    assert "p:ss/w" not in repr(email) and "p%3Ass%2Fw" not in email.describe()


@pytest.mark.parametrize(
    ("url", "port", "tls", "ssl"),
    [
        ("smtps://h", 465, False, True),
        ("smtps://h:2465", 2465, False, True),
        ("smtp+insecure://127.0.0.1", 25, False, False),
        ("smtp://h:2525?timeout=3", 2525, True, False),
    ],
)
def test_schemes_and_ports(url: str, port: int, tls: bool, ssl: bool) -> None:
    email = parse_email_url(url)
    assert (email.port, email.use_tls, email.use_ssl) == (port, tls, ssl)


def test_locmem_for_tests() -> None:
    assert parse_email_url("locmem:").backend == "django.core.mail.backends.locmem.EmailBackend"


@pytest.mark.parametrize("url", ["ftp://h", "smtp://", "smtp://h?timeout=soon", "smtp://h:notaport"])
def test_a_wrong_url_refuses_to_start(url: str) -> None:
    with pytest.raises(ConfigError, match="EMAIL_URL"):
        load({"EMAIL_URL": url})


def test_site_url() -> None:
    production = {
        "CACHO_ENV": "production",
        "SECRET_KEY": "k",
        "ALLOWED_HOSTS": "cacho.example.org,.example.org",
    }
    assert load(production).site_url == "https://cacho.example.org"
    assert (
        load({**production, "SITE_URL": "https://play.example.org/"}).site_url == "https://play.example.org"
    )
    with pytest.raises(ConfigError, match="SITE_URL"):
        load({"SITE_URL": "cacho.example.org"})


@given(
    user=st.text(min_size=1, max_size=30).filter(lambda t: "\x00" not in t),
    password=st.text(min_size=1, max_size=30).filter(lambda t: "\x00" not in t),
    port=st.integers(min_value=1, max_value=65535),
)
def test_any_credentials_come_back_as_given_once_percent_encoded(user: str, password: str, port: int) -> None:
    url = f"smtps://{quote(user, safe='')}:{quote(password, safe='')}@mail.example.org:{port}"
    email = parse_email_url(url)
    assert (email.user, email.password, email.port, email.host) == (user, password, port, "mail.example.org")
    assert email.describe() == f"smtps://{quote(user, safe='')}:***@mail.example.org:{port}"  # logs
