"""Every conformance record (tests/engine/fixtures/records) replays to its expected output,
in-process and through `python -m cacho replay` (exit codes 0/1/2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cacho.engine.errors import RecordFormatError
from cacho.engine.record import replay_record_text
from tests.engine import conformance
from tests.engine.conformance import comparable_expectation, record_pairs, subset_mismatch

PAIRS = record_pairs()
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("record", "expected"), PAIRS, ids=[p[0].stem for p in PAIRS])
def test_record_replays_to_expected_output(record: Path, expected: Path) -> None:
    outcome = replay_record_text(record.read_text())
    want = comparable_expectation(json.loads(expected.read_text()))
    assert subset_mismatch(want, outcome) is None, subset_mismatch(want, outcome)
    if outcome["valid"] is False:
        assert outcome["error"]["code"]
        assert outcome["error"]["code"] == outcome["error"]["code"].lower()


def test_the_records_never_go_missing_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conformance, "RECORDS", tmp_path / "gone")
    with pytest.raises(FileNotFoundError):
        record_pairs()
    monkeypatch.setattr(conformance, "RECORDS", tmp_path)
    (tmp_path / "dudo-alone.json").write_text("{}")
    with pytest.raises(FileNotFoundError):
        record_pairs()  # a record without its expected output
    (tmp_path / "dudo-alone.json").unlink()
    (tmp_path / "dudo-orphan.expected.json").write_text("{}")
    with pytest.raises(FileNotFoundError):
        record_pairs()  # an expected output without its record


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cacho", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_cli_exit_codes_follow_validity() -> None:
    valid = [r for r, e in PAIRS if json.loads(e.read_text()).get("valid", True)]
    broken = [r for r, e in PAIRS if json.loads(e.read_text()).get("valid", True) is False]
    ran = _cli("replay", str(valid[0]))
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["valid"] is True
    ran = _cli("replay", str(broken[0]))
    assert ran.returncode == 1
    assert json.loads(ran.stdout)["valid"] is False


def test_cli_reads_standard_input() -> None:
    record = PAIRS[0][0].read_text()
    ran = _cli("replay", "-", stdin=record)
    assert ran.returncode in (0, 1)
    assert "valid" in json.loads(ran.stdout)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"format": "cacho-match/2", "game": "dudo", "ruleset": "dudo", "players": ["a"], "rounds": []}',
        '{"format": "cacho-match/1", "game": "dudo", "ruleset": "alalay", "players": ["a"], "rounds": []}',
        '{"format": "cacho-match/1", "game": "chess", "ruleset": "dudo", "players": ["a"], "rounds": []}',
    ],
    ids=["bad-json", "not-object", "unknown-format", "game-ruleset-mismatch", "unknown-game"],
)
def test_cli_exit_two_for_files_that_are_not_records(text: str) -> None:
    ran = _cli("replay", "-", stdin=text)
    assert ran.returncode == 2
    assert ran.stdout == ""
    assert ran.stderr.strip()
    with pytest.raises(RecordFormatError):
        replay_record_text(text)


def test_cli_missing_file_is_exit_two() -> None:
    assert _cli("replay", "/nonexistent/record.json").returncode == 2
    assert _cli("frobnicate").returncode == 2
