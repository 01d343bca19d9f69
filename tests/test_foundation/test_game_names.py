"""Outside the engine no module knows the games by key: the shells ask the game's traits,
table line and ruling form (cacho.engine.games, cacho.engine.traits), so a third game would
need no page, API or list to learn its name, its rulesets, its boxes or its rulings.

A game or ruleset key may be written outside the engine only where `ALLOWED` says why (the
words a key is shown with, the demo's choice of rulesets, and "dudo" where it is the call);
no branch compares anything with a game's name; and no list repeats the engine's boxes or
ruling kinds."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from cacho.engine.alalay.scorecard import BOXES
from cacho.engine.games import GAMES
from cacho.engine.rulings import KINDS

ROOT = Path(__file__).resolve().parents[2]
GAME_KEYS = frozenset(GAMES)
RULESET_KEYS = frozenset(ruleset for game in GAMES.values() for ruleset in game.rulesets())
KEYS = GAME_KEYS | RULESET_KEYS
CALL = "the call Dudo!, not the game"
# (file, key) -> why the key is written there.
ALLOWED: dict[tuple[str, str], str] = {
    **{
        ("tournaments/reads/catalogue.py", key): "the rulesets' names and descriptions, in both languages"
        for key in RULESET_KEYS
    },
    **{("tournaments/models.py", key): "the games' names, in both languages" for key in GAME_KEYS},
    ("tournaments/services/demo_seed.py", "dudo"): "the demo's tournaments choose their rulesets",
    ("tournaments/services/demo_seed.py", "alalay"): "the demo's tournaments choose their rulesets",
    (
        "tournaments/services/stage_data.py",
        "alalay",
    ): "the default stage name of a game of scores",
    ("cacho/talk/phrases.py", "dudo"): CALL,
    ("tournaments/integrity/signals.py", "dudo"): CALL,
    ("frontend/labels/site.py", "dudo"): CALL,
    ("frontend/labels/replay.py", "dudo"): CALL,
    ("frontend/labels/rules.py", "dudo"): CALL,
    ("frontend/labels/scorekeeper.py", "dudo"): CALL,
    ("frontend/labels/table.py", "dudo"): CALL,
    ("frontend/static/frontend/js/bidding.js", "dudo"): CALL,
    ("frontend/static/frontend/js/replay-words.js", "dudo"): CALL,
}
# A comparison with a game's name, in Python or JavaScript: `x == "alalay"`, `"dudo" !== y`.
NAMES = "|".join(sorted(GAME_KEYS))
COMPARED = re.compile(rf"""[=!]==?\s*["']({NAMES})["']|["']({NAMES})["']\s*[=!]==?""")
QUOTED = re.compile(r"""["'`]([a-z0-9_-]+)["'`]""")
LIST = re.compile(r"\[[^\[\]]*\]")


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


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """The string literals of a shell file with their line (Python: not the docstrings;
    JavaScript and templates: outside comments)."""
    text = path.read_text()
    if path.suffix == ".py":
        tree = ast.parse(text)
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                yield node.lineno, node.value
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("/*", "*")):
            continue  # a block comment's line
        code = re.sub(r"(^|\s)//.*$", "", line)
        for match in QUOTED.finditer(code):
            yield number, match.group(1)


def test_no_shell_branches_on_a_games_name() -> None:
    found = []
    for path in _shell_files():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if COMPARED.search(line):
                found.append(f"{_name(path)}:{number}: {line.strip()}")
    assert found == [], "ask the game's traits (cacho.engine.traits) instead:\n" + "\n".join(found)


def test_no_shell_holds_a_game_or_ruleset_key_but_where_allowed() -> None:
    found = []
    for path in _shell_files():
        name = _name(path)
        for number, value in _literals(path):
            if value in KEYS and (name, value) not in ALLOWED:
                found.append(f"{name}:{number}: {value!r}")
    assert found == [], "ask cacho.engine.games (GAMES, game_for, the traits) instead:\n" + "\n".join(found)


def test_every_allowance_is_still_needed() -> None:
    used = set()
    for path in _shell_files():
        name = _name(path)
        used |= {(name, value) for _, value in _literals(path) if (name, value) in ALLOWED}
    assert sorted(set(ALLOWED) - used) == []


def test_no_script_lists_the_engines_boxes_or_ruling_kinds() -> None:
    """A list of two or more boxes or ruling kinds in a page's script repeats the engine's:
    the match document's traits and the dispute's ruling form carry them."""
    engine_lists = {"boxes": {*BOXES, "grande"}, "ruling kinds": set(KINDS)}
    found = []
    for path in _shell_files():
        if path.suffix != ".js":
            continue
        text = path.read_text()
        for match in LIST.finditer(text):
            quoted = set(QUOTED.findall(match.group(0)))
            for what, names in engine_lists.items():
                if len(quoted & names) >= 2:
                    number = text.count("\n", 0, match.start()) + 1
                    found.append(f"{_name(path)}:{number}: {what} {sorted(quoted & names)}")
    assert found == [], "take them from the engine (traits, ruling_form):\n" + "\n".join(found)
