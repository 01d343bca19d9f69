"""No branch on a game's name outside the engine: the shells ask the game's
traits and table line (cacho.engine.traits), so a third game would need no page, API or
list to learn its name."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A comparison with a game's name, in Python or JavaScript: `x == "alalay"`, `"dudo" !== y`.
COMPARED = re.compile(r"""[=!]==?\s*["'](alalay|dudo)["']|["'](alalay|dudo)["']\s*[=!]==?""")
EXEMPT: set[str] = set()


def _shell_files() -> list[Path]:
    files = []
    for folder in ("cacho", "tournaments", "frontend"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".js", ".html") or "migrations" in path.parts:
                continue
            if path.is_relative_to(ROOT / "cacho" / "engine"):
                continue
            files.append(path)
    return sorted(files)


def test_no_shell_branches_on_a_games_name() -> None:
    found = []
    for path in _shell_files():
        name = str(path.relative_to(ROOT))
        if name in EXEMPT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if COMPARED.search(line):
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == [], "ask the game's traits (cacho.engine.traits) instead:\n" + "\n".join(found)
