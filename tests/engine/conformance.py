"""The comparison rule of docs/match-record.md ("How an expected output is compared"),
shared by the engine tests.

The public example records live in `fixtures/records/` beside the project's own, named
alike (`RULESET-what-it-shows.json` and its `.expected.json`); the tests read them from
there only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).resolve().parent / "fixtures" / "records"


def subset_mismatch(expected: Any, actual: Any, path: str = "$") -> str | None:
    """First place where `actual` does not carry `expected`, or None."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key}: missing"
            found = subset_mismatch(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected {len(expected)} items, got {actual!r}"
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found = subset_mismatch(want, got, f"{path}[{index}]")
            if found:
                return found
        return None
    if expected != actual or type(expected) is not type(actual):
        return f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"
    return None


def comparable_expectation(expected: dict[str, Any]) -> dict[str, Any]:
    """For a record that breaks a rule only `valid` and the error's position count."""
    if expected.get("valid") is not False:
        return expected
    error = expected.get("error", {})
    return {"valid": False, "error": {k: v for k, v in error.items() if k in ("round", "action", "turn")}}


def record_files() -> list[Path]:
    """Every record of the fixtures; a missing folder is an error, never an empty list."""
    if not RECORDS.is_dir():
        raise FileNotFoundError(f"the conformance records are missing: {RECORDS}")
    return sorted(p for p in RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))


def record_pairs() -> list[tuple[Path, Path]]:
    """(record, expected output) for every record; a record without its expectation is an error."""
    pairs = [(record, record.with_name(record.stem + ".expected.json")) for record in record_files()]
    missing = [expected.name for _, expected in pairs if not expected.exists()]
    wanted = {expected for _, expected in pairs}
    orphans = [path.name for path in RECORDS.glob("*.expected.json") if path not in wanted]
    if missing or orphans or not pairs:
        raise FileNotFoundError(f"records and expected outputs do not pair up: {missing + orphans}")
    return pairs
