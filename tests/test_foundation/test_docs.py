"""The documents the project relies on are in the repository, and say what the code does.

- Every decision id (X-6b, DU-2, P-2 …) and every rules section (§3.3 …) cited in the
  code, the tests or the documents is defined in docs/rules.md.
- Nothing points outside the repository, every `docs/NAME.md` cited exists, and so does
  every example record docs/rules.md names.
- The example records of docs/match-record.md replay to the outcomes printed under them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

from cacho.engine.record import replay_record
from tests.test_foundation.helpers import ROOT

DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
TREES = ("cacho", "tournaments", "frontend", "tests", "docs", "deploy", "bench", "locale", ".ci")
TOP_FILES = ("README.md", "pyproject.toml", "Makefile", "manage.py")
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".toml", ".sh", ".service", ".conf", ".po", ".txt", ""}
SKIPPED_DIRS = {".venv", "node_modules", "__pycache__", "var", "staticfiles"}

DECISION = re.compile(r"(?<![\w-])((?:X|DU|CC|CO|LD|AL|P)-\d+b?)(?!\w)")
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
# A decision is defined by a list item that opens with its id in bold: "- **X-6b …**".
DEFINED_DECISION = re.compile(r"^\s*- \*\*((?:X|DU|CC|CO|LD|AL|P)-\d+b?)\b", re.MULTILINE)
DEFINED_SECTION = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.MULTILINE)
OUTSIDE = re.compile(r"/w[o]rk/|(?<![\w.-])(?:\.\./)?shared/(?:docs|examples|tools|seeds|hooks)\b")
CITED_DOC = re.compile(r"\bdocs/([\w.-]+\.md)\b")
LINKED_DOC = re.compile(r"\]\(([\w.-]+\.md)(?:#[\w-]*)?\)")
FIXTURE_NAME = re.compile(r"`((?:dudo|cacho-chileno|cacho-online|liars-dice|alalay)-[a-z0-9-]+)`")
RECORDS = ROOT / "tests" / "engine" / "fixtures" / "records"
JSON_BLOCK = re.compile(r"```json\n(.*?)```", re.DOTALL)


def project_files() -> Iterator[Path]:
    for name in TOP_FILES:
        yield ROOT / name
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            if SKIPPED_DIRS & set(path.relative_to(ROOT).parts):
                continue
            if path.is_file() and path.suffix in SUFFIXES:
                yield path


def citations(pattern: re.Pattern[str]) -> Iterator[tuple[str, str]]:
    """(where, what) for every match of `pattern` in the project's text files."""
    for path in project_files():
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for match in pattern.finditer(line):
                what = match.group(1) if match.groups() else match.group()
                yield f"{path.relative_to(ROOT)}:{number}", what


def test_the_rules_define_the_decisions_and_sections_they_are_cited_for() -> None:
    rules = RULES.read_text(encoding="utf-8")
    decisions = set(DEFINED_DECISION.findall(rules))
    sections = set(DEFINED_SECTION.findall(rules))
    assert {"X-6b", "DU-1", "CC-9", "CO-7", "LD-1", "AL-11", "P-5"} <= decisions
    assert {"2", "3.3", "9", "11"} <= sections
    missing = [f"{where}: {what}" for where, what in citations(DECISION) if what not in decisions]
    missing += [f"{where}: §{what}" for where, what in citations(SECTION) if what not in sections]
    assert not missing, "cited but not defined in docs/rules.md:\n" + "\n".join(missing)


def test_nothing_points_outside_the_repository() -> None:
    outside = [f"{where}: {what}" for where, what in citations(OUTSIDE)]
    assert not outside, "points outside the repository:\n" + "\n".join(outside)


def test_every_cited_document_exists() -> None:
    cited = [(where, name) for where, name in citations(CITED_DOC)]
    cited += [(where, name) for where, name in citations(LINKED_DOC) if where.startswith("docs/")]
    missing = [f"{where}: {name}" for where, name in cited if not (DOCS / name).is_file()]
    assert not missing, "cited documents that do not exist:\n" + "\n".join(missing)


def test_the_example_records_the_rules_name_exist() -> None:
    names = set(FIXTURE_NAME.findall(RULES.read_text(encoding="utf-8")))
    assert len(names) > 40
    missing = sorted(name for name in names if not (RECORDS / f"{name}.json").is_file())
    assert not missing, f"docs/rules.md names records that are not in {RECORDS}: {missing}"


def test_the_record_examples_replay_as_documented() -> None:
    """Each example record of docs/match-record.md is followed by the outcome it replays to."""
    blocks = [json.loads(block) for block in JSON_BLOCK.findall((DOCS / "match-record.md").read_text())]
    checked = 0
    record = None
    for block in blocks:
        if block.get("format") == "cacho-match/1":
            record = block
        elif record is not None and "valid" in block:
            assert replay_record(record) == block
            record = None
            checked += 1
    assert checked == 4  # the bidding example, the Alalay example, one with rulings, one entered by outcome
