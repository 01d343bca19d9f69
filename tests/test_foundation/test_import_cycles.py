"""No import circles among the project's modules, the hidden ones included.

import-linter's contracts (pyproject.toml) say which floor may import which; they do not
see an import written inside a function, which is how a circle usually hides (`a` imports
`b` at the top, `b` imports `a` in a function "to avoid a circular import"). This builds
the graph of every import statement in cacho, tournaments and frontend, wherever it is
written, and fails on any strongly connected group of modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.test_foundation.helpers import ROOT

PACKAGES = ("cacho", "tournaments", "frontend")

# Circles allowed for now, each as the sorted modules of its group: none. A circle not
# listed here fails the test, and a listed one that is gone too.
KNOWN_CIRCLES: set[tuple[str, ...]] = set()


def module_files() -> dict[str, Path]:
    """Every project module by dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


def imported(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """The project modules that `module` imports anywhere in its source: `from p import n`
    names the module `p.n` when there is one, else `p`."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:  # `import a.b.c` of a name inside a.b
                target = target.rpartition(".")[0]
            if target and target != module:
                yield target


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = set(imported(tree, name, path.name == "__init__.py", known))
    return graph


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(tuple(sorted(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_graph_sees_imports_written_inside_functions() -> None:
    graph = import_graph()
    assert "cacho.services.matches" in graph["cacho.tasks"]
    assert graph["cacho.apps"] >= {"cacho.tasks", "cacho.services.deadlines"}  # in `ready`


def test_the_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [("a", "b", "c")]


def test_no_module_imports_itself_back() -> None:
    found = set(circles(import_graph()))
    assert found - KNOWN_CIRCLES == set(), "new import circles"
    assert KNOWN_CIRCLES - found == set(), "listed circles that are gone: delete their lines"
