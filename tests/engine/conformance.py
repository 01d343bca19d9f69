"""The comparison rule of docs/match-record.md ("Conformance"), shared by the engine tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SHARED_RECORDS = Path(__file__).resolve().parents[2].parent / "shared" / "examples" / "records"


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


def record_pairs() -> list[tuple[Path, Path]]:
    if not SHARED_RECORDS.is_dir():
        return []
    records = sorted(p for p in SHARED_RECORDS.glob("*.json") if not p.name.endswith(".expected.json"))
    return [
        (r, r.with_name(r.stem + ".expected.json"))
        for r in records
        if r.with_name(r.stem + ".expected.json").exists()
    ]
