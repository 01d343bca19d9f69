"""One behaviour on both databases: the code asks which database it runs on in one place
(`cacho.database.databases`), each module that chooses per backend is listed in
docs/databases.md, and the helper answers the database the suite runs on (this test runs
on PostgreSQL and again on SQLite: `sqlite_too`)."""

from __future__ import annotations

import os
import re

import pytest
from django.db import connection

from cacho.database import databases
from tests.test_foundation.helpers import ROOT

CODE = ("cacho", "tournaments", "frontend")
# A vendor compared, or a query builder's per-vendor SQL: a choice made per backend.
CHOICE = re.compile(r"\.vendor\s*(==|!=|\bin\b)|def as_(postgresql|sqlite)\b")
ASKS = re.compile(r"databases\.postgresql\(")


def _sources() -> list[tuple[str, str]]:
    found = []
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            found.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return found


def test_no_module_but_the_helper_compares_vendors() -> None:
    offenders = [
        name
        for name, text in _sources()
        if name != "cacho/database/databases.py" and re.search(r"\.vendor\s*(==|!=|\bin\b)", text)
    ]
    assert offenders == [], f"ask cacho.database.databases.postgresql() instead: {offenders}"


def test_every_choice_per_backend_is_documented() -> None:
    documented = (ROOT / "docs" / "databases.md").read_text(encoding="utf-8")
    choosing = [name for name, text in _sources() if ASKS.search(text) or CHOICE.search(text)]
    choosing = [name for name in choosing if name != "cacho/database/databases.py"]
    assert choosing, "the scan finds the known choices"
    missing = [name for name in choosing if f"`{name}`" not in documented]
    assert missing == [], f"docs/databases.md lists each module that chooses per backend: {missing}"


@pytest.mark.sqlite_too
@pytest.mark.django_db
def test_the_helper_answers_the_database_of_the_run() -> None:
    expected = bool(os.environ.get("DATABASE_URL"))
    assert databases.postgresql() is expected
    assert databases.postgresql(connection) is expected
    assert connection.vendor == ("postgresql" if expected else "sqlite")
