"""The floors hold and the code is clean: import-linter, an AST guard, ruff, mypy strict on the engine."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.test_foundation.helpers import BIN, PYTHON, ROOT

pytestmark = pytest.mark.slow

ENGINE = ROOT / "cacho" / "engine"
# Stdlib modules the rules may not use: dice and the clock are inputs (docs/engine.md).
ENGINE_FORBIDDEN_STDLIB = {"random", "secrets"}


def run_tool(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_import_contracts_hold() -> None:
    done = run_tool("lint-imports", "--no-cache")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "0 broken" in output, output


def _imported_modules(tree: ast.AST, package: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                modules.add(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                modules.add(node.module)
    return modules


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    """Catches what import-linter would miss: any new third-party or cacho module."""
    offenders: list[str] = []
    for path in sorted(ENGINE.rglob("*.py")):
        relative = path.relative_to(ROOT).with_suffix("")
        parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
        package = ".".join(relative.parts[:-1])
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for module in sorted(_imported_modules(tree, package)):
            top = module.split(".")[0]
            if module == "cacho.engine" or module.startswith("cacho.engine."):
                continue
            if top == "__future__" or (top in sys.stdlib_module_names and top not in ENGINE_FORBIDDEN_STDLIB):
                continue
            offenders.append(f"{'.'.join(parts)} imports {module}")
    assert offenders == []


def test_cacho_package_import_stays_django_free() -> None:
    code = (
        "import sys, cacho, cacho.engine\n"
        "heavy = {'django', 'channels', 'celery', 'rest_framework'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    done = subprocess.run(
        [PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_ruff_check_is_clean() -> None:
    done = run_tool("ruff", "check", ".", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_engine() -> None:
    done = run_tool("mypy", "cacho/engine")
    assert done.returncode == 0, done.stdout + done.stderr
