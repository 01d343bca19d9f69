"""The suite's own rules: tests pass time in instead of sleeping (no sleep longer
than a short poll), a missing service fails the run under CI instead of skipping a folder
(tests.needs, never a plain skip mark), and the benches and test helpers play the engine's
one bot policy (`Game.bot_payload`) rather than movers of their own."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
POLL = 0.05  # the longest pause a test may take: one look at another process, not a wait


def _python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if "artifacts" not in path.parts)


def _sleeps(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        value = node.args[0]
        literal = isinstance(value, ast.Constant) and isinstance(value.value, int | float)
        if name == "sleep" and literal and value.value > POLL:  # type: ignore[attr-defined]
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} sleeps {value.value} s")  # type: ignore[attr-defined]
    return found


def test_no_test_sleeps_longer_than_a_poll() -> None:
    found = [line for path in _python_files(TESTS) for line in _sleeps(path)]
    assert found == [], found


def test_browser_tests_wait_without_evaluating_strings() -> None:
    """The pages' Content Security Policy refuses `eval`, which Playwright's
    `wait_for_function` needs: wait on a locator (`expect`) or poll from Python."""
    found = [
        f"{path.relative_to(ROOT)}"
        for path in _python_files(TESTS / "frontend")
        if ".wait_for_function(" in path.read_text()
    ]
    assert found == [], found


def test_missing_services_go_through_tests_needs() -> None:
    plain = [
        f"{path.relative_to(ROOT)}"
        for path in _python_files(TESTS)
        if "pytest.mark.skip(" in path.read_text() and path.name != "test_test_rules.py"
    ]
    assert plain == [], f"a plain skip mark hides a folder under CI; use tests.needs.missing: {plain}"


def test_under_ci_a_database_test_without_postgresql_fails(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(CI="1", CACHO_DATA_DIR=str(tmp_path))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/tournaments/test_log_chain.py::test_a_stored_log_verifies_link_by_link",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0, run.stdout
    assert "CI is set: nothing may be skipped" in run.stdout, run.stdout[-2000:]


def test_benches_and_helpers_play_the_engines_bot_policy() -> None:
    movers = [ROOT / "tests" / "cacho" / "helpers.py", *_python_files(ROOT / "bench")]
    own = [
        str(path.relative_to(ROOT))
        for path in movers
        if "legal_actions(" in path.read_text() or "def quick_move" in path.read_text()
    ]
    assert own == [], f"a mover of its own instead of Game.bot_payload: {own}"
